#include "texture/jpeg_segments.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <utility>
#include <vector>

#include "reader.h"

namespace horde {

namespace {

constexpr uint8_t kSof0 = 0xC0, kSof2 = 0xC2, kDht = 0xC4, kRst0 = 0xD0, kRst7 = 0xD7, kEoi = 0xD9,
                  kSos = 0xDA, kDqt = 0xDB, kDnl = 0xDC, kDri = 0xDD, kApp0 = 0xE0, kApp15 = 0xEF,
                  kCom = 0xFE;
constexpr size_t kTables = 4;           // quantization and Huffman table ids 0-3 of each kind
constexpr size_t kHuffmanSymbols = 256; // what stb_image's tables hold

std::string hex(unsigned value) {
    char text[8];
    std::snprintf(text, sizeof text, "0x%02X", value);
    return text;
}

struct Component {
    uint8_t id = 0;
    uint8_t quantTable = 0;
    bool dcCoded = false;
};

struct Walk {
    Reader r;
    std::array<bool, kTables> quant{}, dc{}, ac{};
    std::vector<Component> components;
    bool frame = false, progressive = false;

    uint16_t be16(std::string_view field) {
        const uint16_t high = r.u8(field);
        return uint16_t(high << 8 | r.u8(field));
    }

    // The length field of the segment that starts here; the rest of it must lie in the file.
    size_t segmentEnd(std::string_view field) {
        const size_t at = r.offset();
        const uint16_t length = be16(field);
        if (r.ok() && length < 2)
            r.failAt(at, field, std::to_string(length) + " is shorter than the length field");
        if (r.ok() && length - 2u > r.remaining())
            r.failAt(at, field,
                     std::to_string(length) + " bytes do not fit in the " +
                         std::to_string(r.remaining() + 2) + " bytes left");
        return at + length;
    }

    void endsAt(size_t end, std::string_view field) {
        if (r.ok() && r.offset() != end)
            r.failAt(end, field,
                     "its tables end at offset " + std::to_string(r.offset()) +
                         ", not where its length says");
    }

    // FF (FF)* code; `padding`: skip bytes before the FF, as stb_image does before the frame header.
    uint8_t marker(bool padding) {
        const size_t at = r.offset();
        uint8_t b = r.u8("marker");
        while (padding && r.ok() && b != 0xFF)
            b = r.u8("marker");
        if (r.ok() && b != 0xFF) r.failAt(at, "marker", hex(b) + " where a marker (0xFF) begins");
        while (r.ok() && b == 0xFF)
            b = r.u8("marker");
        return b;
    }

    // The byte opening each table of a DQT or DHT segment: precision or class (0 or 1) in the
    // high half, the table's id (0-3) in the low half.
    std::pair<unsigned, unsigned> tableHeader(std::string_view field, std::string_view expected) {
        const size_t at = r.offset();
        const uint8_t header = r.u8(field);
        const unsigned kind = header >> 4, id = header & 15u;
        if (r.ok() && (kind > 1 || id >= kTables))
            r.failAt(at, field, hex(header) + ": " + std::string(expected));
        return {kind, id};
    }

    void quantTables() {
        const size_t end = segmentEnd("DQT length");
        while (r.ok() && r.offset() < end) {
            const auto [precision, id] = tableHeader("DQT precision and id", "precision 0 or 1, id 0-3");
            r.skip(64u * (precision + 1), "DQT values");
            if (r.ok()) quant[id] = true;
        }
        endsAt(end, "DQT length");
    }

    void huffmanTables() {
        const size_t end = segmentEnd("DHT length");
        while (r.ok() && r.offset() < end) {
            const auto [tableClass, id] = tableHeader("DHT class and id", "class 0 (DC) or 1 (AC), id 0-3");
            const size_t countsAt = r.offset();
            size_t codes = 0;
            for (std::byte count : r.bytes(16, "DHT code counts"))
                codes += size_t(count);
            if (r.ok() && codes > kHuffmanSymbols)
                r.failAt(countsAt, "DHT code counts",
                         std::to_string(codes) + " codes, more than the " + std::to_string(kHuffmanSymbols) +
                             " a table holds");
            r.skip(codes, "DHT values");
            if (r.ok()) (tableClass == 0 ? dc : ac)[id] = true;
        }
        endsAt(end, "DHT length");
    }

    void frameHeader(uint8_t code) {
        const size_t at = r.offset() - 2;
        if (frame) {
            r.failAt(at, "SOF", "a second frame header");
            return;
        }
        const size_t end = segmentEnd("SOF length");
        r.skip(5, "SOF precision and size");
        const uint8_t count = r.u8("SOF component count");
        if (r.ok() && count != 1 && count != 3 && count != 4)
            r.failAt(r.offset() - 1, "SOF component count", std::to_string(count) + " is not 1, 3 or 4");
        for (unsigned i = 0; r.ok() && i < count; ++i) {
            Component c;
            c.id = r.u8("SOF component id");
            r.u8("SOF sampling factors");
            c.quantTable = r.u8("SOF quantization table");
            if (r.ok() && c.quantTable >= kTables)
                r.failAt(r.offset() - 1, "SOF quantization table",
                         std::to_string(c.quantTable) + " is not 0-3");
            components.push_back(c);
        }
        endsAt(end, "SOF length");
        frame = true;
        progressive = code == kSof2;
    }

    void require(bool defined, size_t at, std::string_view field, std::string_view table, unsigned id) {
        if (r.ok() && !defined)
            r.failAt(at, field, std::string(table) + " table " + std::to_string(id) + " is not defined");
    }

    // The scan header, then its entropy-coded bytes up to the marker that ends them.
    uint8_t scan() {
        const size_t at = r.offset() - 2;
        if (!frame) {
            r.failAt(at, "SOS", "a scan before the frame header");
            return 0;
        }
        const size_t end = segmentEnd("SOS length");
        const uint8_t count = r.u8("SOS component count");
        if (r.ok() && (count < 1 || count > components.size()))
            r.failAt(r.offset() - 1, "SOS component count",
                     std::to_string(count) + " is not 1-" + std::to_string(components.size()));
        struct Selected {
            Component* component;
            unsigned dcTable, acTable;
            size_t at;
        };
        std::vector<Selected> selected;
        for (unsigned i = 0; r.ok() && i < count; ++i) {
            const size_t componentAt = r.offset();
            const uint8_t id = r.u8("SOS component id");
            const uint8_t tables = r.u8("SOS tables");
            const auto c = std::find_if(components.begin(), components.end(),
                                        [&](const Component& k) { return k.id == id; });
            if (r.ok() && c == components.end())
                r.failAt(componentAt, "SOS component id",
                         std::to_string(id) + " is not a component of the frame");
            else if (r.ok() && (tables >> 4 >= kTables || (tables & 15u) >= kTables))
                r.failAt(componentAt + 1, "SOS tables", hex(tables) + ": DC and AC table ids 0-3");
            if (r.ok()) selected.push_back({&*c, unsigned(tables >> 4), tables & 15u, componentAt});
        }
        const uint8_t spectralStart = r.u8("SOS spectral start");
        r.u8("SOS spectral end");
        const uint8_t approximation = r.u8("SOS successive approximation");
        endsAt(end, "SOS length");
        // Baseline scans code every coefficient; a progressive scan either starts the DC
        // coefficients (spectral start 0, no earlier bits), refines them (no table), or codes an AC band.
        const bool dcFirst = spectralStart == 0 && (!progressive || approximation >> 4 == 0);
        const bool acBand = !progressive || spectralStart > 0;
        for (const Selected& s : selected) {
            require(quant[s.component->quantTable], s.at, "SOS component id", "quantization",
                    s.component->quantTable);
            if (dcFirst) require(dc[s.dcTable], s.at + 1, "SOS tables", "DC Huffman", s.dcTable);
            if (acBand) require(ac[s.acTable], s.at + 1, "SOS tables", "AC Huffman", s.acTable);
            s.component->dcCoded |= dcFirst;
        }
        return entropyCodedData();
    }

    // Stuffed 0xFF 0x00 pairs and restart markers belong to the scan; any other marker ends it.
    uint8_t entropyCodedData() {
        const std::span<const std::byte> all = r.all();
        size_t at = r.offset();
        while (r.ok()) {
            const auto ff = std::find(all.begin() + ptrdiff_t(at), all.end(), std::byte{0xFF});
            if (ff == all.end()) {
                r.failAt(r.offset(), "scan data", "the file ends before a marker closes the scan");
                return 0;
            }
            r.seek(size_t(ff - all.begin()), "scan data");
            const uint8_t code = marker(false);
            if (code != 0 && (code < kRst0 || code > kRst7)) return code;
            at = r.offset();
        }
        return 0;
    }

    void uncoded() {
        for (const Component& c : components)
            if (!c.dcCoded) {
                r.failAt(r.offset() - 2, "EOI",
                         "component " + std::to_string(c.id) + " has no scan coding its DC coefficients");
                return;
            }
    }

    void run() {
        r.skip(2, "SOI");
        uint8_t code = marker(false);
        while (r.ok()) {
            if (code == kEoi && frame) {
                uncoded();
                return;
            }
            const size_t at = r.offset() - 2;
            bool scanned = false;
            if (code == kDqt) {
                quantTables();
            } else if (code == kDht) {
                huffmanTables();
            } else if (code >= kSof0 && code <= kSof2) {
                frameHeader(code);
            } else if (code == kSos) {
                code = scan();
                scanned = true;
            } else if (code == kDri || (code == kDnl && frame)) {
                const size_t end = segmentEnd(code == kDri ? "DRI length" : "DNL length");
                if (r.ok() && end - at != 6)
                    r.failAt(at + 2, code == kDri ? "DRI length" : "DNL length", "is not 4");
                r.seek(end, "segment");
            } else if ((code >= kApp0 && code <= kApp15) || code == kCom) {
                r.seek(segmentEnd(code == kCom ? "COM length" : "APP length"), "segment");
            } else {
                r.failAt(at, "marker",
                         hex(code) +
                             " is not a segment of a baseline, extended or progressive Huffman JPEG here");
            }
            if (!scanned && r.ok()) code = marker(!frame);
        }
    }
};

} // namespace

Status checkJpegSegments(const std::string& name, std::span<const std::byte> bytes) {
    Walk walk{Reader(bytes, name)};
    walk.run();
    if (!walk.r.ok()) return walk.r.error();
    return Ok{};
}

} // namespace horde
