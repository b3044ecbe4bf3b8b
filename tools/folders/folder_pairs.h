#pragma once
// Which files of a folder make one creature: the rules of docs/formats/*.md, "Folders", the same
// for every format, each format's FolderRule (format.h) saying which apply to its files: an
// animation with every model that has each node it keys (Grimrock); a model with its chain of
// supermodels (NWN); a mesh with the one skeleton that fits it (EMI, SWTOR), and animations with
// the meshes of the skeletons that have each bone they key (EMI). A pairing with more than one
// answer where one is needed is a note on the file, and no pair.
#include <string>
#include <vector>

#include "folder_scan.h"

namespace horde {

struct FilePairs {
    int skeleton = -1;               // models and meshes: index into Folder::files
    std::vector<size_t> anims;       // models and meshes: animation files, in folder order
    std::vector<size_t> supermodels; // models whose format has supermodels: the chain, nearest first
    std::vector<size_t> users;       // animations, skeletons, supermodels: the models paired with them
    std::vector<std::string> notes;  // pairing warnings: ambiguous, fits nothing, not found
};

// One entry per file of `folder`. Loads what a rule needs (node names, trial skeletons) on
// `jobs` threads.
std::vector<FilePairs> pairFolder(const Folder& folder, unsigned jobs);

} // namespace horde
