// The examples every `--help` ends with. Each runs as written in a folder where
// `modkit sample game` wrote the sample games; the lines of one subcommand run in order (a later
// line may use what an earlier one wrote). tests/cli/test_cli_help.cpp runs every one of them.
#include "cli.hpp"

namespace modkit {

namespace {

using Table = std::map<std::string, std::vector<std::string>>;

const std::string rom = "game/stadium/pokemon_stadium_sample.z64";
const std::string pak = "game/shred/char_sample.pak";
const std::string dgc = "game/totem/SAMPLE.DGC";
const std::string ngc = "game/totem/SAMPLE.NGC";
const std::string hero = "'DB:>SAMPLE>CHARACTERS>HERO>HERO.TSKIN'";

const Table& table() {
    static const Table t = {
        {"apply", {"modkit manifest new pokemon-stadium " + rom + " mod.json",
                   "modkit apply mod.json --dry-run"}},
        {"demo", {"modkit demo demo-out"}},
        {"manifest check", {"modkit manifest new totemtech " + dgc + " " + ngc + " totem.json",
                            "modkit manifest check totem.json"}},
        {"manifest new", {"modkit manifest new pokemon-stadium " + rom + " stadium.json"}},
        {"manifest pack", {"modkit manifest new totemtech " + dgc + " " + ngc + " totem.json",
                           "modkit manifest pack totem.json totem-mod.zip"}},
        {"manifest schema", {"modkit manifest schema manifest > manifest.schema.json"}},
        {"patch create", {"modkit stadium palette hsv " + rom + " 0 blue.z64 --palette 0 --hue 200",
                          "modkit patch create " + rom + " blue.z64 blue.bps --metadata 'Blue model 0'"}},
        {"patch apply", {"modkit stadium palette hsv " + rom + " 0 blue.z64 --palette 0 --hue 200",
                         "modkit patch create " + rom + " blue.z64 blue.bps && modkit patch apply blue.bps " + rom}},
        {"patch info", {"modkit patch create " + rom + " " + rom + " same.bps --metadata 'nothing changed'",
                        "modkit patch info same.bps"}},
        {"preview", {"modkit totem export " + dgc + " " + ngc + " " + hero + " hero.glb",
                     "modkit preview hero.glb hero.png --view front --size 256"}},
        {"clean", {"modkit clean", "modkit clean game --json"}},
        {"report", {"modkit manifest new pokemon-stadium " + rom + " r.json && modkit apply r.json",
                    "modkit report out/report/report.json page.html"}},
        {"rom info", {"modkit rom info " + rom, "modkit rom info " + rom + " --json"}},
        {"rom fix-crc", {"modkit rom fix-crc " + rom + " fixed.z64"}},
        {"rom normalize", {"modkit rom normalize " + rom + " swapped.v64 --order v64",
                           "modkit rom normalize swapped.v64 back.z64"}},
        {"sample", {"modkit sample game2", "modkit sample game3 --game totem"}},
        {"shred preview", {"modkit shred preview " + pak + " skater01 skater01.png --view side"}},
        {"shred pak", {"modkit shred pak list " + pak, "modkit shred pak extract " + pak + " pak-files"}},
        {"shred show", {"modkit shred show " + pak, "modkit shred show " + pak + " --json"}},
        {"shred scan", {"modkit shred scan " + pak}},
        {"shred conformance", {"modkit shred conformance " + pak}},
        {"shred edit", {"printf '0,0,position,0,0,0\\n' > changes.csv",
                        "modkit shred pak extract " + pak + " scan-files && modkit shred edit scan-files/skater01.rmg "
                        "edited.rmg --changes changes.csv"}},
        {"shred replace", {"modkit shred export " + pak + " skater01 0 mesh0.glb",
                           "modkit shred replace " + pak + " skater01 0 mesh0.glb new.pak"}},
        {"shred bones", {"modkit shred export " + pak + " skater01 1 mesh1.glb",
                         "modkit shred bones mesh1.glb --target " + pak + " skater01 --out bones.txt"}},
        {"shred export", {"modkit shred export " + pak + " skater01 skater01.glb",
                          "modkit shred export " + pak + " skater01 1 mesh1.gltf"}},
        {"stadium preview", {"modkit stadium preview " + rom + " 0 model0.png --size 256"}},
        {"stadium list", {"modkit stadium list " + rom, "modkit stadium list " + rom + " --json"}},
        {"stadium extract", {"modkit stadium extract " + rom + " entries"}},
        {"stadium repack", {"modkit stadium extract " + rom + " entries2",
                            "modkit stadium repack " + rom + " entries2 repacked.z64 --mode nintendo"}},
        {"stadium verify", {"modkit stadium verify " + rom}},
        {"stadium fragment", {"modkit stadium extract " + rom + " entries3",
                              "modkit stadium fragment check entries3/entries/000.fragment"}},
        {"stadium show", {"modkit stadium show " + rom + " 0", "modkit stadium show " + rom + " 2 --json"}},
        {"stadium palette", {"modkit stadium palette hsv " + rom + " 0 hue.z64 --palette 0 --hue 120 --lock 0-1",
                             "modkit stadium palette set " + rom + " 0 gold.z64 --palette 0 --set 2=#FFD700"}},
        {"stadium texture", {"modkit stadium textures " + rom + " 0 tex",
                             "modkit stadium texture replace " + rom + " 0 new.z64 --texture 0 --png tex/tex000.png"}},
        {"stadium export", {"modkit stadium export " + rom + " 0 model0.glb"}},
        {"stadium bones", {"modkit stadium export " + rom + " 1 body.glb",
                           "modkit stadium bones body.glb --target " + rom + " 1 --out bones.txt"}},
        {"stadium replace", {"modkit stadium export " + rom + " 1 body.glb && modkit stadium replace " + rom +
                                 " 1 body.glb new.z64 --dry-run",
                             "modkit stadium replace " + rom + " 1 body.glb new.z64 && modkit stadium preview new.z64 1 "
                             "compare.png --before " + rom + " --pose 0:2"}},
        {"stadium animation", {"modkit stadium export " + rom + " 3 m3.glb --animations",
                               "modkit stadium animation replace " + rom + " 3 0 m3.glb anim.z64"}},
        {"stadium animations", {"modkit stadium animations " + rom + " 0", "modkit stadium animations " + rom + " 3 --dump --json"}},
        {"stadium moves", {"modkit stadium moves " + rom + " 0"}},
        {"stadium textures", {"modkit stadium textures " + rom + " 1 textures1"}},
        {"szp pack", {"modkit stadium extract " + rom + " entries4",
                      "modkit szp pack entries4/entries/000.fragment e0.szp --mode nintendo"}},
        {"szp unpack", {"modkit stadium extract " + rom + " entries5 && modkit szp pack entries5/entries/000.fragment e0.szp",
                        "modkit szp unpack e0.szp e0.fragment"}},
        {"szp info", {"modkit stadium extract " + rom + " entries6 && modkit szp pack entries6/entries/000.fragment e1.szp",
                      "modkit szp info e1.szp"}},
        {"texture decode", {"printf '\\001\\043\\105\\147\\211\\253\\315\\357' > ia4.bin",
                            "modkit texture decode ia4.bin ia4.png --format ia4 --width 4 --height 4"}},
        {"texture encode", {"modkit stadium textures " + rom + " 0 tex2",
                            "modkit texture encode tex2/tex001.png tex1.rgba16 --format rgba16"}},
        {"texture palette-set", {"printf '\\000\\000\\370\\001\\007\\301\\000\\077' > pal.bin",
                                 "modkit texture palette-set pal.bin gold.bin --set 1=#FFD700 --lock 0"}},
        {"texture palette-hsv", {"printf '\\000\\000\\370\\001\\007\\301\\000\\077' > pal.bin",
                                 "modkit texture palette-hsv pal.bin hue.bin --hue 120 --slots 1-3 --lock 0"}},
        {"totem list", {"modkit totem list " + dgc, "modkit totem list game/totem/SAMPLE.DPS --json"}},
        {"totem extract", {"modkit totem extract " + dgc + " " + ngc + " records"}},
        {"totem repack", {"modkit totem extract " + dgc + " " + ngc + " records2",
                          "modkit totem repack " + dgc + " " + ngc + " records2 REPACKED.DGC"}},
        {"totem show", {"modkit totem show " + dgc + " " + ngc + " " + hero, "modkit totem show " + dgc + " " + ngc + " '#3'"}},
        {"totem verify", {"modkit totem verify " + dgc}},
        {"totem export", {"modkit totem export " + dgc + " " + ngc + " " + hero + " hero.glb"}},
        {"totem preview", {"modkit totem preview " + dgc + " " + ngc + " " + hero + " hero-skin.png"}},
        {"totem bones", {"modkit totem export " + dgc + " " + ngc + " " + hero + " hero.glb",
                         "modkit totem bones hero.glb --target " + dgc + " " + ngc + " " + hero + " --out groups.txt"}},
        {"totem replace", {"modkit totem export " + dgc + " " + ngc + " " + hero + " hero.glb",
                           "modkit totem replace " + dgc + " " + ngc + " 'DB:>SAMPLE>CHARACTERS>HERO>HERO.TNODE' hero.glb "
                           "REPLACED.DGC --names-out REPLACED.NGC"}},
        {"totem reweight", {"modkit totem export " + dgc + " " + ngc + " " + hero + " hero.glb",
                            "modkit totem reweight " + dgc + " " + ngc + " " + hero + " hero.glb REWEIGHTED.DGC --units file"}},
        {"totem textures", {"modkit totem textures " + dgc + " " + ngc + " textures",
                            "modkit totem textures " + dgc + " " + ngc + " " + hero + " hero-textures"}},
        {"totem texture", {"modkit totem textures " + dgc + " " + ngc + " tex",
                           "modkit totem texture replace " + dgc + " " + ngc +
                               " 'DB:>SAMPLE>TEXTURES>CLOTH.TBITMAP' tex/SAMPLE/TEXTURES/CLOTH.TBITMAP.BITMAP.png RETEXTURED.DGC"}},
        {"totem palette", {"modkit totem palette set " + dgc + " " + ngc +
                               " 'DB:>SAMPLE>TEXTURES>CLOTH.TBITMAP' GOLD.DGC --set 1=FFD700 --lock 0",
                           "modkit totem palette hsv " + dgc + " " + ngc +
                               " 'DB:>SAMPLE>TEXTURES>CRATE.TBITMAP' BLUE.DGC --hue 200 --slots 0-127"}},
        {"totem material", {"modkit totem material colour " + dgc + " " + ngc +
                                " 'DB:>SAMPLE>MATERIALS>SKIN.TMAT' TINTED.DGC --colour FF8080"}},
        {"yay0 compress", {"modkit yay0 compress " + ngc + " names.yay0 --mode best",
                           "modkit yay0 compress " + dgc + " " + ngc + " --out-dir packed -j 2"}},
        {"yay0 decompress", {"modkit yay0 compress " + ngc + " names2.yay0",
                             "modkit yay0 decompress names2.yay0 names.bin"}},
    };
    return t;
}

}  // namespace

const std::vector<std::string>* help_examples(const std::string& key) {
    auto it = table().find(key);
    return it == table().end() ? nullptr : &it->second;
}

}  // namespace modkit
