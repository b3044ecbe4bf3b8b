#pragma once
// Animations: each is a geometry of its own (usually dummy nodes holding controllers) with a
// length, a transition time, an animation root and events. Its nodes bind to the model's nodes
// by name, case-insensitively. Position keys are absolute local positions; clips played on
// another model (inherited from a supermodel, or passed with --anim) have them multiplied by
// that model's animation scale.
#include <string>
#include <vector>

#include "asset/model.h"
#include "nwn/nwn.h"

namespace horde::nwn {

// Decodes every animation of `file` (header already read) against `target`'s nodes. Binding
// findings (unmatched nodes) go to target.warnings, lengths and events to target.extras.
bool readClips(File& file, const ModelHeader& header, float positionScale, Model& target, std::vector<Clip>& clips);

} // namespace horde::nwn
