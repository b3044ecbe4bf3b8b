#include "report_folder.h"

#include <fstream>

namespace horde {

Status writeReportFolder(const std::filesystem::path& dir, std::string_view page, std::string_view dataName,
                         const nlohmann::json& data, int indent) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Error{dir.string() + ": cannot create: " + ec.message()};
    std::ofstream html(dir / "index.html");
    html << page;
    std::ofstream json(dir / dataName);
    json << data.dump(indent) << "\n";
    if (!html || !json) return Error{dir.string() + ": cannot write the report"};
    return Ok{};
}

} // namespace horde
