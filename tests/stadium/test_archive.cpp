// BinArchive parsing, decoding and repacking on the sample ROM.
#include "stadium_test_support.hpp"

#include "libmod/core/file.hpp"
#include "libmod/core/hash.hpp"
#include "libmod/n64/rom.hpp"
#include "libmod/stadium/archive.hpp"
#include "libmod/stadium/fragment_image.hpp"
#include "libmod/stadium/model_walk.hpp"
#include "libmod/stadium/palette_edit.hpp"
#include "libmod/stadium/rom_archive.hpp"

#include <cstring>
#include <set>

using namespace mod::stadium;
using modtest::catch_error;

namespace {

const StadiumRom& rom() {
    static StadiumRom r = load_rom_bytes(stadiumtest::sample_rom_bytes(), "sample.z64");
    return r;
}
const Archive& archive() {
    static Archive a = read_archive(rom());
    return a;
}

Fragment fragment_of(std::size_t i) {
    auto d = decode_entry(archive(), i);
    return parse_fragment(mod::ByteReader(d.content, mod::Endian::big, "t", "fragment"));
}

// A hand-made archive of raw entries in a 0x200-byte region: entry 0 at 0x50 (0x13 bytes, an
// unpadded size), entry 1 empty at 0x63 (unaligned, right after entry 0), entry 2 at 0x70 (0x20
// bytes, a padded size), entry 3 at 0x93 (7 bytes, unaligned); 0xFF tail padding; total_size
// 0xC0 (0x20 more than ALIGN16 of the data end 0x9A).
mod::Bytes raw_region() {
    mod::Bytes r(0x200, 0xFF);
    auto put = [&](std::uint32_t at, std::uint32_t v) { mod::endian::store_be32(&r[at], v); };
    put(0, 0x000000EF);
    put(4, 0);
    put(8, 0xC0);
    put(0xC, 4);
    const std::uint32_t layout[4][2] = {{0x50, 0x13}, {0x63, 0}, {0x70, 0x20}, {0x93, 7}};
    for (std::uint32_t i = 0; i < 4; ++i) {
        put(0x10 + 16 * i, layout[i][0]);
        put(0x14 + 16 * i, layout[i][1]);
        put(0x18 + 16 * i, 0);
        put(0x1C + 16 * i, 0x1000 + i);  // the unknown word, kept
        for (std::uint32_t k = 0; k < layout[i][1]; ++k) r[layout[i][0] + k] = static_cast<std::uint8_t>(0x10 * (i + 1) + k);
    }
    r[0x60] = r[0x61] = r[0x62] = 0xA5;  // padding between entries, not covered by any entry
    return r;
}

Archive parse_region(const mod::Bytes& r) { return parse_archive(mod::ByteReader(r, mod::Endian::big, "raw", "archive")); }

RepackOptions raw_options() {
    RepackOptions o;
    o.model_limits = false;
    o.rom_end_limit = UINT32_MAX;
    return o;
}

mod::Bytes numbered(std::size_t n, std::uint8_t first) {
    mod::Bytes b(n);
    for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(first + i);
    return b;
}

// repack_archive, checked against repack_archive_into writing over the very bytes that a view
// of a copy of the region reads (the workspace's case): the same bytes and the same outcome.
RepackResult repack_checked(const Archive& a, const std::vector<Replacement>& rep, const RepackOptions& opt = {}) {
    RepackResult r = repack_archive(a, rep, opt);
    auto buffer = std::make_shared<mod::Bytes>(a.region.copy());
    const Archive view =
        parse_archive(mod::ByteReader(*buffer, mod::Endian::big, a.file, "archive").with_base(a.base), buffer);
    BOOST_TEST_REQUIRE(static_cast<const void*>(view.region.data()) == static_cast<const void*>(buffer->data()));
    const RepackResult in_place = repack_archive_into(view, rep, opt, *buffer);
    BOOST_TEST(in_place.region.empty());
    BOOST_TEST_REQUIRE((*buffer == r.region));
    BOOST_TEST(in_place.reencoded == r.reencoded);
    BOOST_TEST(in_place.header.total_size == r.header.total_size);
    BOOST_TEST_REQUIRE(in_place.entries.size() == r.entries.size());
    for (std::size_t i = 0; i < r.entries.size(); ++i) {
        BOOST_TEST(in_place.entries[i].moved == r.entries[i].moved);
        BOOST_TEST(in_place.entries[i].descriptor.offset == r.entries[i].descriptor.offset);
        BOOST_TEST(in_place.entries[i].descriptor.size == r.entries[i].descriptor.size);
    }
    return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stadium_archive)

BOOST_AUTO_TEST_CASE(sample_rom_obeys_the_reference) {
    const auto& z = rom().z64;
    BOOST_TEST(z.size() == 32u << 20);
    auto h = mod::n64::read_header(z);
    BOOST_TEST(h.pi_config == 0x80371240u);
    BOOST_TEST(h.entry_point == 0x80100400u);
    BOOST_TEST(h.title == "POKEMON STADIUM");
    BOOST_TEST(h.game_code == "NPOE");
    BOOST_TEST(h.version == 0);
    BOOST_TEST(mod::endian::load_be16(&z[0xE38]) == 0x828A);
    auto crc = mod::n64::compute_checksums(z, mod::n64::Cic::cic6103);
    BOOST_TEST(h.stored.crc1 == crc.crc1);
    BOOST_TEST(h.stored.crc2 == crc.crc2);
    const auto& a = archive();
    BOOST_TEST(a.header.flags == 0);
    BOOST_TEST(a.header.fragment_id == 0xEF);
    BOOST_TEST(a.header.word4 == 0u);
    BOOST_TEST(a.header.count >= 12u);
    BOOST_TEST(a.header.total_size == total_size_u6(a.data_end()));
    BOOST_TEST(audit_archive(a).empty());
    BOOST_TEST(model_archive_rom + a.data_end() <= model_archive_rom_end);
    std::size_t raw = 0, szp = 0;
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        BOOST_TEST(a.entries[i].offset % 16 == 0u);
        BOOST_TEST(a.entries[i].cache == 0u);
        auto d = decode_entry(a, i);
        BOOST_TEST(d.is_fragment);
        if (d.kind == PayloadKind::fragment) ++raw;
        // Entry 9 carries fix-ups and size2 = size1 + 0x40 (test_forge_relocs.cpp checks it).
        const bool fixups = i == 9;
        if (d.kind == PayloadKind::pers_szp) {
            ++szp;
            BOOST_TEST(d.szp->header_size == (fixups ? 0x30u : 0x18u));
            BOOST_TEST(d.szp->size2 == d.szp->size1 + (fixups ? 0x40u : 0u));
            BOOST_TEST(d.szp->fixups.size() == (fixups ? 3u : 0u));
        }
        Fragment f = parse_fragment(mod::ByteReader(d.content, mod::Endian::big, "t", "fragment"));
        BOOST_TEST(f.header.entry_jump == model_entry_jump);
        BOOST_TEST(f.link_base() == model_link_base);
        // size1 = sizeInRom; size2 = size1 (+ 0x40 zero bytes on entry 9)
        BOOST_TEST(f.header.size_in_rom + (fixups ? 0x40u : 0u) == d.content.size());
        ModelMap m = walk_model(f);
        BOOST_TEST(m.root.model_id == i + 1);
        BOOST_TEST(cross_check(f, m).ok());
        std::set<std::uint8_t> ops;
        for (const auto& c : m.commands) ops.insert(c.op);
        for (int op : {0x17, 0x1C, 0x1D, 0x23, 0x22, 0x05, 0x06, 0x01}) BOOST_TEST(ops.count(static_cast<std::uint8_t>(op)) == 1u);
        check_entry_limits(i, a.entries[i].size, static_cast<std::uint32_t>(d.content.size()), f.header.size_in_ram, {});
    }
    BOOST_TEST(raw == 1u);
    BOOST_TEST(szp == a.entries.size() - 1);
    // The tail up to 0x15C0000 is the sample's 0xFF padding.
    BOOST_TEST(a.region.size() == model_archive_rom_end - model_archive_rom);
    BOOST_TEST(a.region[a.data_end()] == 0xFF);
    BOOST_TEST(a.region.back() == 0xFF);
}

BOOST_AUTO_TEST_CASE(unchanged_repack_is_the_identity_in_every_byte_order) {
    RepackOptions opt;
    auto r = repack_checked(archive(), {}, opt);
    BOOST_TEST(r.region == archive().region);
    BOOST_TEST(r.reencoded == 0u);
    for (auto order : {mod::n64::ByteOrder::z64, mod::n64::ByteOrder::v64, mod::n64::ByteOrder::n64}) {
        mod::Bytes image = mod::n64::from_z64(rom().z64, order);
        StadiumRom other = load_rom_bytes(image, "x");
        BOOST_TEST((other.order == order));
        BOOST_TEST(write_archive(other, repack_checked(read_archive(other), {}, opt)) == image);
        auto repacked = repack_checked(read_archive(other), {}, opt);
        apply_archive(other, repacked);
        BOOST_TEST(take_image(std::move(other)) == image);
    }
    // Same content given as a replacement: still nothing re-encoded, same bytes.
    std::vector<Replacement> same;
    for (std::size_t i = 0; i < archive().entries.size(); ++i) same.push_back({i, decode_entry(archive(), i).content});
    auto again = repack_checked(archive(), same, opt);
    BOOST_TEST(again.reencoded == 0u);
    BOOST_TEST(again.region == archive().region);
    auto v = verify_archive(archive());
    BOOST_TEST(v.ok());
    BOOST_TEST(v.crosscheck_ok == archive().entries.size());
    // The sample was packed with the nintendo parse, so every stream re-encodes identically.
    BOOST_TEST(v.nintendo_matches == v.pers_szp);
}

BOOST_AUTO_TEST_CASE(changed_entry_is_reencoded_and_later_entries_move) {
    const std::size_t k = 3;
    FragmentImage img(fragment_of(k));
    ModelMap m = walk_model(img.original());
    // Grow the first texture by 4 KiB: the entry grows, everything after it moves.
    const std::uint32_t texels = m.tables[0].textures[0].texels - model_link_base;
    mod::Bytes pattern(4096);
    for (std::size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<std::uint8_t>(i * 131 + (i >> 7));
    img.insert(texels, pattern);
    mod::Bytes edited = encode_fragment(img.build());
    RepackOptions opt;
    opt.threads = 2;
    auto r = repack_checked(archive(), {{k, edited}}, opt);
    BOOST_TEST(r.reencoded == 1u);
    Archive out = parse_archive(mod::ByteReader(r.region, mod::Endian::big, "out", "archive"));
    BOOST_TEST(decode_entry(out, k).content == edited);
    for (std::size_t i = 0; i < out.entries.size(); ++i) {
        const auto& before = archive().entries[i];
        const auto& after = out.entries[i];
        BOOST_TEST(after.offset % 16 == 0u);
        BOOST_TEST(after.cache == before.cache);
        BOOST_TEST(after.unknown == before.unknown);
        if (i != k) {
            BOOST_TEST(after.size == before.size);
            BOOST_TEST(mod::to_hex(mod::sha1(out.blob(i))) == mod::to_hex(mod::sha1(archive().blob(i))));
        }
        if (i < k) BOOST_TEST(after.offset == before.offset);
        if (i > k) BOOST_TEST(after.offset > before.offset);
    }
    BOOST_TEST(out.header.total_size == total_size_u6(out.data_end()));
    // The tail padding beyond the new end is still the original 0xFF.
    BOOST_TEST(out.region[out.data_end() + 1] == 0xFF);
    // Same output with one thread.
    opt.threads = 1;
    BOOST_TEST(repack_checked(archive(), {{k, edited}}, opt).region == r.region);
    // And a round trip of the edited archive through an unchanged repack.
    BOOST_TEST(repack_checked(out, {}, opt).region == r.region);
}

BOOST_AUTO_TEST_CASE(shrunk_entry_keeps_later_entries_in_place) {
    const std::size_t k = 2;
    Fragment f = fragment_of(k);
    FragmentImage img(f);
    ModelMap m = walk_model(f);
    // Replace the first texture's texels with zeros: compresses smaller, same layout.
    const auto& t = m.tables[0].textures[0];
    img.write(t.texels - model_link_base, mod::Bytes(t.texel_count / 2, 0));
    mod::Bytes edited = encode_fragment(img.build());
    auto r = repack_checked(archive(), {{k, edited}});
    Archive out = parse_archive(mod::ByteReader(r.region, mod::Endian::big, "out", "archive"));
    BOOST_TEST(out.entries[k].size < archive().entries[k].size);
    for (std::size_t i = k + 1; i < out.entries.size(); ++i) BOOST_TEST(out.entries[i].offset == archive().entries[i].offset);
    BOOST_TEST(out.header.total_size == archive().header.total_size);
    // The bytes the shrunk blob vacated are cleared, not stale.
    const std::uint32_t end = out.entries[k].offset + out.entries[k].size;
    for (std::uint32_t p = end; p < archive().entries[k + 1].offset; ++p) BOOST_TEST_REQUIRE(out.region[p] == 0);
}

// The manifest writes a model edit into its workspace ROM in place (repack_model_edit +
// apply_archive, reading the archive from a view of the bytes): the same image as the copying
// apply_model_edit, and the palette word a hand computation gives.
BOOST_AUTO_TEST_CASE(in_place_model_edit_gives_the_copying_edits_bytes) {
    const Model m = read_archive_model(archive(), 1);
    FragmentImage image(m.fragment);
    const mod::image::SlotColour red{2, {255, 0, 0, 255}};
    set_palette_slots(m, image, 0, std::span(&red, 1));
    const Fragment edited = image.build();
    const mod::Bytes copied = apply_model_edit(rom(), archive(), 1, edited);
    BOOST_TEST_REQUIRE(copied.size() == rom().z64.size());
    BOOST_TEST(!(copied == rom().z64));
    StadiumRom in_place = rom();
    apply_archive(in_place, repack_model_edit(archive(), 1, edited));
    BOOST_TEST((in_place.z64 == copied));
    // RGBA5551 of FF0000FF: r 31 << 11 = 0xF800, alpha bit 1.
    const Archive from_view = read_archive(mod::ByteView(copied), "edited.z64");
    BOOST_TEST(read_archive_model(from_view, 1).palettes.at(0).entries.at(2) == 0xF801u);
    BOOST_TEST((from_view.region == read_archive(load_rom_bytes(copied)).region));
    BOOST_TEST(from_view.base == std::uint64_t(model_archive_rom));
    const auto e = catch_error([&] { read_archive(mod::ByteView(copied).first(model_archive_rom + 8), "short.z64"); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->file() == "short.z64");
    BOOST_TEST(std::string(e->what()).find("ends before the archive at 0x920000") != std::string::npos, e->what());
}

BOOST_AUTO_TEST_CASE(a_viewed_archive_shares_the_image_and_keeps_it_alive) {
    auto image = std::make_shared<const mod::Bytes>(rom().z64);
    const std::uint8_t* const at = image->data() + model_archive_rom;
    std::weak_ptr<const mod::Bytes> watch = image;
    const mod::ByteView bytes = *image;
    Archive viewed = view_archive(bytes, std::move(image), "viewed.z64");
    // No copy: the region is the image's own bytes, up to the region's end.
    BOOST_TEST(static_cast<const void*>(viewed.region.data()) == static_cast<const void*>(at));
    BOOST_TEST(viewed.region.size() == std::size_t(model_archive_rom_end - model_archive_rom));
    BOOST_TEST(!watch.expired());  // held by the archive alone
    BOOST_TEST((viewed.region == archive().region));
    BOOST_TEST(viewed.entries.size() == archive().entries.size());
    BOOST_TEST(viewed.base == std::uint64_t(model_archive_rom));
    BOOST_TEST((decode_entry(viewed, 3).content == decode_entry(archive(), 3).content));
    // A copy shares the bytes; the image goes with the last holder.
    Archive copy = viewed;
    viewed = Archive{};
    BOOST_TEST(!watch.expired());
    BOOST_TEST(static_cast<const void*>(copy.region.data()) == static_cast<const void*>(at));
    copy = Archive{};
    BOOST_TEST(watch.expired());
    // The same refusals as read_archive, naming the file.
    auto short_image = std::make_shared<const mod::Bytes>(rom().z64.begin(), rom().z64.begin() + model_archive_rom + 8);
    const auto e = catch_error([&] { view_archive(*short_image, nullptr, "short.z64"); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->file() == "short.z64");
    BOOST_TEST(std::string(e->what()).find("ends before the archive at 0x920000") != std::string::npos, e->what());
}

BOOST_AUTO_TEST_CASE(descriptor_words_and_padding_are_preserved) {
    // Give entry 5 a non-zero unknown word and leave a gap with odd padding before entry 6.
    mod::Bytes region = archive().region.copy();
    mod::endian::store_be32(&region[0x10 + 16 * 5 + 12], 0xDEADBEEF);
    Archive a = parse_archive(std::move(region), archive().file, archive().base);
    BOOST_TEST(a.entries[5].unknown == 0xDEADBEEFu);
    auto r = repack_checked(a, {});
    BOOST_TEST(r.region == a.region);
    mod::Bytes edited = decode_entry(a, 7).content;
    edited[0x40] ^= 1;  // a change inside the body
    auto r2 = repack_checked(a, {{7, edited}});
    BOOST_TEST(mod::endian::load_be32(&r2.region[0x10 + 16 * 5 + 12]) == 0xDEADBEEFu);
}

BOOST_AUTO_TEST_CASE(limit_violations_name_the_entry) {
    const std::size_t k = 4;
    // A fragment with 300 KiB of incompressible data exceeds the 0x28000 load buffer.
    FragmentImage img(fragment_of(k));
    modtest::Rng rng(9);
    mod::Bytes noise(300 * 1024);
    for (auto& b : noise) b = static_cast<std::uint8_t>(rng.next());
    img.append(noise);
    mod::Bytes big = encode_fragment(img.build());
    auto e = catch_error([&] { repack_archive(archive(), {{k, big}}); });
    BOOST_TEST((e->kind() == mod::ErrorKind::limit));
    BOOST_TEST(e->path() == "archive[4]");
    BOOST_TEST(e->message().find("0x28000") != std::string::npos);
    // Compressible but larger than the 0x3C000 model block.
    FragmentImage img2(fragment_of(k));
    img2.append(mod::Bytes(0x3C000, 0));
    e = catch_error([&] { repack_archive(archive(), {{k, encode_fragment(img2.build())}}); });
    BOOST_TEST(e->path() == "archive[4]");
    BOOST_TEST(e->message().find("0x3C000") != std::string::npos);
    // The fragment limit and the archive end limit, with relaxed model limits.
    check_entry_limits(1, 16, 16, 0xFFFFF, {});
    e = catch_error([&] { check_entry_limits(6, 16, 16, 0x100000, {}); });
    BOOST_TEST(e->path() == "archive[6]");
    BOOST_TEST(e->message().find("0x100000") != std::string::npos);
    RepackOptions opt;
    opt.rom_end_limit = model_archive_rom + archive().data_end() + 100;
    e = catch_error([&] { repack_archive(archive(), {{k, big}}, [&] { auto o = opt; o.model_limits = false; return o; }()); });
    BOOST_TEST(e->message().find("past the limit") != std::string::npos);
    BOOST_TEST(e->path().find("archive[") == 0u);
    // In place, every refusal comes before the first byte is written.
    {
        std::optional<mod::Error> f;
        mod::Bytes region = archive().region.copy();
        const mod::Bytes before = region;
        f = catch_error([&] { repack_archive_into(archive(), {{k, big}}, {}, region); });
        BOOST_TEST(f->message().find("0x28000") != std::string::npos);
        auto relaxed = opt;
        relaxed.model_limits = false;
        f = catch_error([&] { repack_archive_into(archive(), {{k, big}}, relaxed, region); });
        BOOST_TEST(f->message().find("past the limit") != std::string::npos);
        f = catch_error([&] { repack_archive_into(archive(), {}, {}, std::span(region).first(region.size() - 1)); });
        BOOST_TEST((f->kind() == mod::ErrorKind::usage));
        BOOST_TEST((region == before));
    }
}

BOOST_AUTO_TEST_CASE(truncated_and_corrupt_archives_fail_cleanly) {
    mod::Bytes head(archive().region.begin(), archive().region.begin() + archive().data_end());
    auto decode_all = [](mod::ByteView b) {
        Archive a = parse_archive(mod::ByteReader(b, mod::Endian::big, "t", "archive"));
        for (std::size_t i = 0; i < a.entries.size(); ++i) {
            auto d = decode_entry(a, i);
            if (d.is_fragment) {
                Fragment f = parse_fragment(mod::ByteReader(d.content, mod::Endian::big, "t", "fragment"));
                cross_check(f, walk_model(f));
            }
        }
    };
    // Prefixes (every 7th length keeps the loop quick) and flips of the header and table.
    std::size_t rejected = 0;
    for (std::size_t len = 0; len < head.size(); len += 7) {
        mod::Bytes prefix(head.begin(), head.begin() + static_cast<std::ptrdiff_t>(len));
        try { decode_all(prefix); } catch (const mod::Error&) { ++rejected; }
    }
    BOOST_TEST(rejected > head.size() / 8);
    BOOST_TEST(modtest::byte_flip_loop(head, decode_all, 97) > 0u);
    // Overlapping entries are named.
    mod::Bytes overlap = head;
    mod::endian::store_be32(&overlap[0x10 + 16 * 2], mod::endian::load_be32(&overlap[0x10 + 16 * 1]));
    auto e = catch_error([&] { parse_archive(mod::ByteReader(overlap, mod::Endian::big, "t", "archive")); });
    BOOST_TEST(e->path() == "archive[2]");
    // A count that cannot fit is refused before allocating.
    mod::Bytes huge = head;
    mod::endian::store_be32(&huge[0xC], 0x10000000);
    BOOST_TEST(catch_error([&] { parse_archive(mod::ByteReader(huge, mod::Endian::big, "t", "archive")); }).has_value());
}

BOOST_AUTO_TEST_CASE(extract_and_repack_round_trip) {
    modtest::TempDir dir;
    auto s = extract_archive(rom(), archive(), dir.path());
    BOOST_TEST(s.entries == archive().entries.size());
    BOOST_TEST(s.fragments == archive().entries.size());
    BOOST_TEST(read_extracted(archive(), dir.path()).empty());
    // Edit one extracted fragment on disk: exactly that entry comes back as a replacement.
    auto path = dir / "entries/005.fragment";
    mod::Bytes f = mod::read_file(path);
    f[0x30] ^= 0xFF;
    mod::write_file_atomic(path, f);
    auto reps = read_extracted(archive(), dir.path());
    BOOST_TEST_REQUIRE(reps.size() == 1u);
    BOOST_TEST(reps[0].index == 5u);
    // An index from another archive is refused.
    Archive other = archive();
    other.entries[1].unknown = 1;
    auto e = catch_error([&] { read_extracted(other, dir.path()); });
    BOOST_TEST((e->kind() == mod::ErrorKind::conflict));
}


BOOST_AUTO_TEST_CASE(raw_entries_of_edge_sizes_and_offsets_repack_exactly) {
    const mod::Bytes region = raw_region();
    const Archive a = parse_region(region);
    BOOST_TEST(a.data_end() == 0x9Au);
    BOOST_TEST(repack_checked(a, {}, raw_options()).region == region);
    auto offsets = [](const Archive& x) {
        std::vector<std::uint32_t> o;
        for (const auto& d : x.entries) o.push_back(d.offset);
        return o;
    };
    auto check_kept = [&](const Archive& out, std::size_t i) {
        BOOST_TEST(out.entries[i].size == a.entries[i].size);
        BOOST_TEST(out.entries[i].unknown == a.entries[i].unknown);
        const auto x = out.blob(i), y = a.blob(i);
        BOOST_TEST(std::equal(x.begin(), x.end(), y.begin(), y.end()));
    };

    // Same size, new bytes: nothing moves, the unaligned offsets stay where they were.
    {
        const mod::Bytes content = numbered(0x13, 0x80);
        const auto r = repack_checked(a, {{0, content}}, raw_options());
        const Archive out = parse_region(r.region);
        BOOST_TEST(offsets(out) == offsets(a));
        BOOST_TEST(decode_entry(out, 0).content == content);
        for (std::size_t i = 1; i < 4; ++i) check_kept(out, i);
        BOOST_TEST(out.header.total_size == 0xC0u);
        mod::Bytes expect = region;
        std::copy(content.begin(), content.end(), expect.begin() + 0x50);
        BOOST_TEST(r.region == expect);
    }
    // Entry 0 grows to 0x25 bytes (its stored size was not a multiple of 16: no padding):
    // everything after it moves to the next 16-byte boundaries.
    {
        const mod::Bytes content = numbered(0x25, 0x40);
        const auto r = repack_checked(a, {{0, content}}, raw_options());
        const Archive out = parse_region(r.region);
        BOOST_TEST(offsets(out) == (std::vector<std::uint32_t>{0x50, 0x80, 0x80, 0xA0}));
        BOOST_TEST(out.entries[0].size == 0x25u);
        BOOST_TEST(decode_entry(out, 0).content == content);
        for (std::size_t i = 1; i < 4; ++i) check_kept(out, i);
        // Bytes an old entry covered and no new one does are cleared.
        for (std::uint32_t p = 0x75; p < 0x80; ++p) BOOST_TEST_REQUIRE(r.region[p] == 0);
        // U6 with the original's excess: ALIGN16(0xA7) + 0x20.
        BOOST_TEST(out.header.total_size == 0xD0u);
        BOOST_TEST(r.region[0xA7] == 0xFF);
        BOOST_TEST(repack_checked(out, {}, raw_options()).region == r.region);
    }
    // The last entry shrinks: the bytes it vacates take the tail padding's value.
    {
        const mod::Bytes content = {1, 2, 3};
        const auto r = repack_checked(a, {{3, content}}, raw_options());
        const Archive out = parse_region(r.region);
        BOOST_TEST(offsets(out) == offsets(a));
        BOOST_TEST(decode_entry(out, 3).content == content);
        for (std::uint32_t p = 0x96; p < 0x9A; ++p) BOOST_TEST(r.region[p] == 0xFF);
        BOOST_TEST(out.header.total_size == 0xC0u);  // ALIGN16(0x96) + 0x20
        mod::Bytes expect = region;
        std::copy(content.begin(), content.end(), expect.begin() + 0x93);
        std::fill(expect.begin() + 0x96, expect.begin() + 0x9A, 0xFF);
        mod::endian::store_be32(&expect[0x10 + 16 * 3 + 4], 3);
        BOOST_TEST(r.region == expect);
    }
    // A padded (multiple of 16) entry keeps that convention; the gap before the next entry is
    // left as it was where it was padding.
    {
        const mod::Bytes content = numbered(5, 0x70);
        const auto r = repack_checked(a, {{2, content}}, raw_options());
        const Archive out = parse_region(r.region);
        BOOST_TEST(out.entries[2].size == 0x10u);
        mod::Bytes padded = content;
        padded.resize(0x10, 0);
        BOOST_TEST(decode_entry(out, 2).content == padded);
        BOOST_TEST(offsets(out) == offsets(a));
        for (std::uint32_t p = 0x80; p < 0x90; ++p) BOOST_TEST_REQUIRE(r.region[p] == 0);
        BOOST_TEST(r.region[0x60] == 0xA5);
    }
    // The empty entry gets content: it moves past entry 0's end only if it must (it need not).
    {
        const mod::Bytes content = numbered(0xD, 0x20);
        const auto r = repack_checked(a, {{1, content}}, raw_options());
        const Archive out = parse_region(r.region);
        BOOST_TEST(offsets(out) == (std::vector<std::uint32_t>{0x50, 0x63, 0x70, 0x93}));
        BOOST_TEST(decode_entry(out, 1).content == content);
        for (std::size_t i : {0, 2, 3}) check_kept(out, i);
    }
}

BOOST_AUTO_TEST_CASE(a_raw_entry_refuses_content_the_loader_would_decompress) {
    // A raw entry is stored as given; content starting with "PERS-SZP" would be read back (and
    // loaded by the game) as a compressed blob, not as the content given.
    const Archive a = parse_region(raw_region());
    mod::Bytes content = numbered(0x30, 0);
    std::memcpy(content.data(), "PERS-SZP", 8);
    auto e = catch_error([&] { repack_archive(a, {{2, content}}, raw_options()); });
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST(e->kind() == mod::ErrorKind::usage);
    BOOST_TEST(e->path() == "archive[2]");
    BOOST_TEST(e->file() == "raw");
    BOOST_TEST(e->message().find("PERS-SZP") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
