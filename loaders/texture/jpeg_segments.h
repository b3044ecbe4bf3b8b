#pragma once
// A JPEG's marker segments, walked before stb_image sees the file.
#include <cstddef>
#include <span>
#include <string>

#include "core/result.h"

namespace horde {

// stb_image 2.27 (Debian 12's libstb) trusts a JPEG's Huffman tables: a table of more than 256
// codes writes past its arrays (found by fuzz_jpeg: a wild read at the next symbol decoded), a
// scan may use a table that was never defined (stb reads what its allocation held). stb_image
// 2.28 fixed both; Debian 12 has 2.27. This walks the segments in stb_image's order and refuses
// each at its byte offset, as it refuses a scan whose quantization table is undefined and a frame
// whose components never have their DC coefficients coded (stb would leave their texels
// uninitialised), so stb only ever decodes with whole tables.
Status checkJpegSegments(const std::string& name, std::span<const std::byte> bytes);

} // namespace horde
