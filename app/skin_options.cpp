#include "skin_options.h"

namespace horde {

void SkinArgs::addOptions(CLI::App& command) {
    command
        .add_option("--skinning", skinning,
                    "lbs: linear blend of the joints' matrices; dqs: dual quaternions (Kavan et al. 2007), "
                    "which keep the volume a linear blend loses at twisted joints")
        ->check(CLI::IsMember({"lbs", "dqs"}));
    command
        .add_option("--precision", precision,
                    "fp32, or fp16: palettes and skinned vertices as halves (half the bytes; about 1e-3 of "
                    "the model's size off, docs/PERFORMANCE.md)")
        ->check(CLI::IsMember({"fp32", "fp16"}));
    command
        .add_option("--influences", influences,
                    "4: each vertex's four strongest joints; 8: up to eight where the file has them "
                    "(glTF JOINTS_1/WEIGHTS_1)")
        ->check(CLI::IsMember({4u, 8u}));
}

SkinOptions SkinArgs::options() const {
    return {parseSkinning(skinning).value_or(Skinning::Lbs),
            parsePrecision(precision).value_or(Precision::Fp32), influences};
}

} // namespace horde
