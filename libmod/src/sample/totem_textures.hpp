#pragma once
// Internal to the TotemTech sample forge: the BITMAP / MATERIAL / MATERIALANIM / MATERIALOBJ
// records (totem_textures.cpp), added by totem.cpp's build().
#include "libmod/core/bytes.hpp"
#include "libmod/totem/archive.hpp"

#include <string>
#include <vector>

namespace mod::sample {

struct TotemRecordSpec {
    std::string type, name, subtype;
    Bytes payload;
};

// Appends the records for `platform` (subtype name `subtype` for each).
void totem_texture_records(totem::Platform platform, const std::string& subtype, std::vector<TotemRecordSpec>& out);

}  // namespace mod::sample
