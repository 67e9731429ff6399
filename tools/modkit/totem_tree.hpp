#pragma once
// `modkit totem show` of a NODE or LOD record: its links and the character tree under it
// (cmd_totem_replace.cpp).
#include "cli.hpp"

#include "libmod/totem/archive.hpp"
#include "libmod/totem/names.hpp"

namespace modkit {

void show_character_tree(const mod::ByteReader& dgc, const mod::totem::Archive& archive,
                         const mod::totem::NameTable& names, std::size_t index, const Global& g);

}  // namespace modkit
