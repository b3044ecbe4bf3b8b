#include "folder_pairs.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <unordered_set>

#include "core/text.h"
#include "loader.h"
#include "thread_pool.h"

namespace horde {

namespace {

// The pairing rule of a file that was read, null for one that was not or that no format holds.
const FolderRule* ruleOf(const FolderFile& f) {
    return f.error.empty() && f.survey.format ? &f.survey.format->folders : nullptr;
}

bool usable(const FolderFile& f, std::string_view family, FileKind kind) {
    const FolderRule* rule = ruleOf(f);
    return rule && f.survey.kind == kind && family == rule->family;
}

std::string list(const Folder& folder, const std::vector<size_t>& indices) {
    std::string out;
    for (size_t k = 0; k < indices.size() && k < 3; ++k)
        out += (k ? ", " : "") + folder.files[indices[k]].rel;
    if (indices.size() > 3) out += " and " + std::to_string(indices.size() - 3) + " more";
    return out;
}

using Names = std::unordered_set<std::string>;

// Node names of the models and skeletons animations are matched against (lower case where the
// rule ignores case), and which meshes carry bone weights their own file cannot bind.
struct Loaded {
    std::vector<Names> nodes;
    std::vector<char> needsSkeleton;
};

Loaded loadWhatRulesNeed(const Folder& folder, unsigned jobs) {
    const std::vector<FolderFile>& files = folder.files;
    Loaded loaded{std::vector<Names>(files.size()), std::vector<char>(files.size(), 0)};
    parallelFor(
        files.size(), jobs,
        [&](size_t i) {
            const FolderFile& f = files[i];
            const FolderRule* rule = ruleOf(f);
            if (!rule) return;
            using Animations = FolderRule::Animations;
            const bool keyedModel =
                           f.survey.kind == FileKind::Model && rule->animations == Animations::ModelNodes,
                       keyedSkeleton = f.survey.kind == FileKind::Skeleton &&
                                       rule->animations == Animations::SkeletonNodes;
            if (!keyedModel && !keyedSkeleton && f.survey.kind != FileKind::Mesh) return;
            HeapMeshAllocator allocator;
            Result<Model> model = loadModel(f.path, {}, allocator);
            if (!model) return; // the model's own record reports it
            for (const Node& n : model->nodes)
                loaded.nodes[i].insert(rule->ignoreCase ? asciiLower(n.name) : n.name);
            // The loaders' words for a mesh loaded static because its skeleton was not given.
            for (const std::string& w : model->warnings)
                if (w.find("no skeleton was given") != std::string::npos ||
                    w.find("no --skeleton was given") != std::string::npos)
                    loaded.needsSkeleton[i] = 1;
        },
        [&](size_t i) { return "pairing " + files[i].rel; });
    return loaded;
}

bool keysAll(const std::vector<std::string>& keyed, const Names& nodes, bool ignoreCase) {
    return std::all_of(keyed.begin(), keyed.end(),
                       [&](const std::string& n) { return nodes.count(ignoreCase ? asciiLower(n) : n) > 0; });
}

// The rule of an animation file whose family pairs animations by `by`; null for any other file.
const FolderRule* animationRule(const FolderFile& f, FolderRule::Animations by) {
    const FolderRule* rule = ruleOf(f);
    return rule && f.survey.kind == FileKind::Animation && rule->animations == by ? rule : nullptr;
}

// An animation goes with every model of its family that has each node it keys.
void pairAnimationsWithModels(const Folder& folder, const Loaded& loaded, std::vector<FilePairs>& out) {
    const std::vector<FolderFile>& files = folder.files;
    for (size_t a = 0; a < files.size(); ++a) {
        const FolderRule* rule = animationRule(files[a], FolderRule::Animations::ModelNodes);
        if (!rule) continue;
        const std::vector<std::string>& keyed = files[a].survey.names;
        if (keyed.empty()) {
            out[a].notes.push_back("keys no node, so no model can play it");
            continue;
        }
        for (size_t m = 0; m < files.size(); ++m)
            if (usable(files[m], rule->family, FileKind::Model) && !loaded.nodes[m].empty() &&
                keysAll(keyed, loaded.nodes[m], rule->ignoreCase)) {
                out[m].anims.push_back(a);
                out[a].users.push_back(m);
            }
        if (out[a].users.empty())
            out[a].notes.push_back("fits no model: no " + std::string(rule->name) +
                                   " model in the folder has all " + std::to_string(keyed.size()) +
                                   " nodes it keys (the first is '" + keyed.front() + "')");
    }
}

// The rule by which a file takes its place in chains of supermodels: a model of a family that
// has them, or a file such a family claims that could not be read (its load reports it).
const FolderRule* chainRule(const FolderFile& f) {
    if (f.error.empty()) {
        const FolderRule* rule = ruleOf(f);
        return rule && rule->supermodels && f.survey.kind == FileKind::Model ? rule : nullptr;
    }
    const Format* claimed = claimOf(f.path).format;
    return claimed && claimed->folders.supermodels ? &claimed->folders : nullptr;
}

// Each link of the chain: the file named after it beside the model (where the loader looks
// first), else the one such file in the folder; several elsewhere is ambiguous.
void pairSupermodels(const Folder& folder, std::vector<FilePairs>& out) {
    const std::vector<FolderFile>& files = folder.files;
    std::map<std::pair<std::string, std::string>, std::vector<size_t>> byName; // (family, lower-case stem)
    for (size_t i = 0; i < files.size(); ++i)
        if (const FolderRule* rule = chainRule(files[i]))
            byName[{rule->family, asciiLower(files[i].path.stem().string())}].push_back(i);
    for (size_t m = 0; m < files.size(); ++m) {
        const FolderRule* rule = chainRule(files[m]);
        if (!rule || !files[m].error.empty()) continue;
        std::set<size_t> seen{m};
        const FolderFile* link = &files[m];
        while (!link->survey.names.empty() && link->error.empty()) {
            const std::string& name = link->survey.names.front();
            auto found = byName.find({rule->family, asciiLower(name)});
            if (found == byName.end()) {
                out[m].notes.push_back("supermodel '" + name + "' is not in the folder");
                break;
            }
            std::vector<size_t> beside;
            for (size_t c : found->second)
                if (files[c].path.parent_path() == files[m].path.parent_path()) beside.push_back(c);
            const std::vector<size_t>& candidates = beside.empty() ? found->second : beside;
            if (candidates.size() > 1) {
                out[m].notes.push_back("supermodel '" + name + "' is ambiguous: " + list(folder, candidates) +
                                       "; none paired (give --search-path to a single model)");
                break;
            }
            size_t s = candidates.front();
            if (!seen.insert(s).second) break; // a loop: the load reports it
            out[m].supermodels.push_back(s);
            out[s].users.push_back(m);
            link = &files[s];
        }
    }
}

// The skeleton named as the format's writer names it (FolderRule::skeletonFor: EMI mk.sklb for
// mk.meshb, SWTOR body_skeleton.gr2 for body.gr2) if it fits; else the one skeleton of the
// family that fits.
void pairSkeletons(const Folder& folder, const Loaded& loaded, unsigned jobs, std::vector<FilePairs>& out) {
    const std::vector<FolderFile>& files = folder.files;
    parallelFor(
        files.size(), jobs,
        [&](size_t m) {
            if (!loaded.needsSkeleton[m]) return;
            const FolderRule& rule = *ruleOf(files[m]);
            auto fits = [&](size_t s) {
                LoadOptions options;
                options.skeleton = files[s].path;
                HeapMeshAllocator allocator;
                Result<Model> model = loadModel(files[m].path, options, allocator);
                if (!model) return false;
                return std::none_of(model->warnings.begin(), model->warnings.end(), [](const std::string& w) {
                    return w.find("bones not in the skeleton") != std::string::npos; // EMI binds what it can
                });
            };
            const std::string named =
                rule.skeletonFor ? asciiLower(rule.skeletonFor(files[m].path).stem().string()) : "";
            std::vector<size_t> others;
            for (size_t s = 0; s < files.size(); ++s) {
                if (!usable(files[s], rule.family, FileKind::Skeleton)) continue;
                bool preferred = rule.skeletonFor &&
                                 files[s].path.parent_path() == files[m].path.parent_path() &&
                                 asciiLower(files[s].path.stem().string()) == named;
                if (preferred && fits(s)) {
                    out[m].skeleton = int(s);
                    return;
                }
                if (!preferred) others.push_back(s);
            }
            std::vector<size_t> fitting;
            for (size_t s : others)
                if (fits(s)) fitting.push_back(s);
            if (fitting.size() == 1)
                out[m].skeleton = int(fitting.front());
            else if (fitting.empty())
                out[m].notes.push_back(
                    "has bone weights but no skeleton in the folder fits it; it loads static");
            else
                out[m].notes.push_back("several skeletons fit it: " + list(folder, fitting) +
                                       "; none paired (give --skeleton to a single model)");
        },
        [&](size_t m) { return "skeleton for " + files[m].rel; });
    for (size_t m = 0; m < files.size(); ++m)
        if (out[m].skeleton >= 0) out[size_t(out[m].skeleton)].users.push_back(m);
}

// An animation goes with every mesh of its family whose paired skeleton has each bone it keys.
void pairAnimationsWithSkeletons(const Folder& folder, const Loaded& loaded, std::vector<FilePairs>& out) {
    const std::vector<FolderFile>& files = folder.files;
    for (size_t a = 0; a < files.size(); ++a) {
        const FolderRule* rule = animationRule(files[a], FolderRule::Animations::SkeletonNodes);
        if (!rule) continue;
        const std::vector<std::string>& keyed = files[a].survey.names;
        bool fitsSkeleton = false;
        for (size_t m = 0; m < files.size(); ++m) {
            int s = out[m].skeleton;
            if (s < 0 || !usable(files[m], rule->family, FileKind::Mesh) || keyed.empty()) continue;
            if (!keysAll(keyed, loaded.nodes[size_t(s)], rule->ignoreCase)) continue;
            fitsSkeleton = true;
            out[m].anims.push_back(a);
            out[a].users.push_back(m);
        }
        if (!fitsSkeleton)
            out[a].notes.push_back(
                keyed.empty() ? "keys no bone, so no mesh can play it"
                              : "fits no mesh: no skeleton paired with a mesh in the folder has all " +
                                    std::to_string(keyed.size()) + " bones it keys (the first is '" +
                                    keyed.front() + "')");
    }
}
} // namespace

std::vector<FilePairs> pairFolder(const Folder& folder, unsigned jobs) {
    std::vector<FilePairs> out(folder.files.size());
    Loaded loaded = loadWhatRulesNeed(folder, jobs);
    pairAnimationsWithModels(folder, loaded, out);
    pairSupermodels(folder, out);
    pairSkeletons(folder, loaded, jobs, out);
    pairAnimationsWithSkeletons(folder, loaded, out);
    for (size_t i = 0; i < folder.files.size(); ++i)
        if (folder.files[i].error.empty() && folder.files[i].survey.kind == FileKind::Skeleton &&
            out[i].users.empty())
            out[i].notes.push_back("no mesh in the folder pairs with it");
    return out;
}

} // namespace horde
