#include "fixtures.hpp"
#include "test_support.hpp"

#include "libmod/totem/archive.hpp"
#include "libmod/totem/names.hpp"

using namespace mod::totem;
using totemtest::text;

BOOST_AUTO_TEST_SUITE(totem_names)

BOOST_AUTO_TEST_CASE(ids_are_signed_ieee_crc32_of_the_exact_bytes) {
    // Values from Python's zlib.crc32, reinterpreted as signed 32-bit.
    BOOST_TEST(name_id("SKIN") == 887915946);
    BOOST_TEST(name_id("MESH") == -671426590);
    BOOST_TEST(name_id("") == 0);
    BOOST_TEST(name_id("DB:>LEVELS>LVL_DGBA>CHM_NORM>GL_CAUTION01_017.T3DNODE") == -513692128);
    BOOST_TEST(name_id("skin") != name_id("SKIN"));  // no case folding
    BOOST_TEST(hash_text(name_id("MESH")) == "0xD7FAD7E2");
    BOOST_TEST(*parse_id("0xD7FAD7E2") == name_id("MESH"));
    BOOST_TEST(*parse_id("-671426590") == name_id("MESH"));
    BOOST_TEST(!parse_id("12x").has_value());
    BOOST_TEST(!parse_id("").has_value());
}

BOOST_AUTO_TEST_CASE(parse_lookup_and_byte_exact_round_trip) {
    const std::string body = std::to_string(name_id("SKIN")) + " \"SKIN\"\n" + std::to_string(name_id("A B")) +
                             " \"A B\"\n\ntrailing stuff kept\n";
    auto bytes = text(body);
    auto t = NameTable::parse(mod::ByteReader(bytes, mod::Endian::big, "t.NGC", "names"));
    BOOST_TEST(t.entries().size() == 2u);
    BOOST_TEST(*t.find(name_id("A B")) == "A B");
    BOOST_TEST(t.display(name_id("MESH")) == "0xD7FAD7E2");
    BOOST_TEST(t.findings().empty());
    BOOST_TEST(t.encode() == bytes);
}

BOOST_AUTO_TEST_CASE(added_names_go_before_the_terminator_with_the_file_line_ending) {
    const std::string body = std::to_string(name_id("SKIN")) + " \"SKIN\"\r\n\r\n";
    auto bytes = text(body);
    auto t = NameTable::parse(mod::ByteReader(bytes, mod::Endian::big));
    BOOST_TEST(!t.add("SKIN"));
    BOOST_TEST(t.add("NEW NAME"));
    auto out = t.encode();
    const std::string expect = std::to_string(name_id("SKIN")) + " \"SKIN\"\r\n" + std::to_string(name_id("NEW NAME")) +
                               " \"NEW NAME\"\r\n\r\n";
    BOOST_TEST(std::string(out.begin(), out.end()) == expect);
    auto again = NameTable::parse(mod::ByteReader(out, mod::Endian::big));
    BOOST_TEST(again.entries().size() == 2u);
    BOOST_CHECK_THROW(t.add("bad \"quote"), mod::Error);
}

BOOST_AUTO_TEST_CASE(an_unterminated_last_line_gets_a_newline_before_additions) {
    auto bytes = text(std::to_string(name_id("X")) + " \"X\"");
    auto t = NameTable::parse(mod::ByteReader(bytes, mod::Endian::big));
    BOOST_TEST(t.encode() == bytes);
    t.add("Y");
    auto out = t.encode();
    BOOST_TEST(std::string(out.begin(), out.end()) ==
               std::to_string(name_id("X")) + " \"X\"\n" + std::to_string(name_id("Y")) + " \"Y\"\n");
}

BOOST_AUTO_TEST_CASE(wrong_ids_and_duplicates_are_reported_not_rejected) {
    auto bytes = text("123 \"SKIN\"\n123 \"OTHER\"\n");
    auto t = NameTable::parse(mod::ByteReader(bytes, mod::Endian::big));
    BOOST_TEST(t.entries().size() == 2u);
    BOOST_TEST(t.findings().size() == 3u);  // two CRC mismatches, one duplicate
    // Chum World's nametable.rs inserts every line into a HashMap: the later line replaces the
    // earlier one. modkit reads the same and reports both readings.
    BOOST_TEST(*t.find(123) == "OTHER");
    BOOST_TEST(t.display(123) == "OTHER");
    BOOST_TEST(t.findings()[2].find("\"OTHER\" (used, the last line wins as in Chum World) replaces \"SKIN\" at byte 0") !=
               std::string::npos);
    BOOST_TEST(t.encode() == bytes);  // kept verbatim
}

BOOST_AUTO_TEST_CASE(malformed_lines_fail_with_offset_and_line_path) {
    auto bytes = text("1 \"A\"\nnotanumber \"B\"\n");
    auto err = modtest::catch_error([&] { NameTable::parse(mod::ByteReader(bytes, mod::Endian::big, "x.NGC", "names")); });
    BOOST_REQUIRE(err);
    BOOST_TEST(err->offset() == 6u);
    BOOST_TEST(err->path() == "names.line[1]");
    auto unquoted = text("1 A\n");
    BOOST_CHECK_THROW(NameTable::parse(mod::ByteReader(unquoted, mod::Endian::big)), mod::Error);
    auto big = text("99999999999 \"A\"\n");
    BOOST_CHECK_THROW(NameTable::parse(mod::ByteReader(big, mod::Endian::big)), mod::Error);
}

BOOST_AUTO_TEST_CASE(every_truncation_and_flip_is_clean) {
    std::string body;
    for (const char* n : {"SKIN", "MESH", "DB:>A>B.TSKIN", ""}) body += std::to_string(name_id(n)) + " \"" + n + "\"\n";
    auto bytes = text(body);
    auto decode = [](mod::ByteView v) { NameTable::parse(mod::ByteReader(v, mod::Endian::big)); };
    modtest::truncation_loop(bytes, decode);
    BOOST_TEST(modtest::byte_flip_loop(bytes, decode) > 0u);
}

BOOST_AUTO_TEST_CASE(a_line_starting_with_nul_ends_the_table) {
    std::string body = std::to_string(name_id("SKIN")) + " \"SKIN\"\n";
    body += std::string(3, '\0') + "not a line\n";
    auto bytes = text(body);
    auto t = NameTable::parse(mod::ByteReader(bytes, mod::Endian::big));
    BOOST_TEST(t.entries().size() == 1u);
    BOOST_TEST(t.encode() == bytes);
    BOOST_TEST(t.add("MESH"));
    auto grown = t.encode();
    const std::string expect = std::to_string(name_id("SKIN")) + " \"SKIN\"\n" + std::to_string(name_id("MESH")) +
                               " \"MESH\"\n" + std::string(3, '\0') + "not a line\n";
    BOOST_TEST((grown == text(expect)));
}

BOOST_AUTO_TEST_CASE(texts_name_records_by_listed_name_hash_decimal_id_or_index) {
    const std::string body = std::to_string(name_id("HERO")) + " \"HERO\"\n" + std::to_string(name_id("0x00000005")) +
                             " \"0x00000005\"\n";
    auto bytes = text(body);
    const auto t = NameTable::parse(mod::ByteReader(bytes, mod::Endian::big));
    BOOST_TEST(id_from_text(t, "HERO") == name_id("HERO"));
    BOOST_TEST(id_from_text(t, "0xD7FAD7E2") == name_id("MESH"));      // a hash
    BOOST_TEST(id_from_text(t, "-671426590") == name_id("MESH"));      // a signed decimal ID
    BOOST_TEST(id_from_text(t, "0x00000005") == name_id("0x00000005"));  // a listed name wins over the hash it reads as
    BOOST_TEST(id_from_text(NameTable{}, "0x00000005") == 5);
    BOOST_TEST(id_from_text(t, "UNLISTED") == name_id("UNLISTED"));    // a name the table lacks is still hashed

    Archive a;
    for (auto id : {name_id("A"), name_id("HERO"), name_id("MESH"), name_id("HERO")}) {
        Record r;
        r.name_id = id;
        a.records.push_back(r);
    }
    BOOST_TEST(*find_record_by_text(a, t, "HERO") == 1u);  // the first match
    BOOST_TEST(*find_record_by_text(a, t, "0xD7FAD7E2") == 2u);
    BOOST_TEST(*find_record_by_text(a, t, "#3") == 3u);
    BOOST_TEST(*find_record_by_text(a, t, "#0x0") == 0u);
    BOOST_TEST(!find_record_by_text(a, t, "#4").has_value());
    BOOST_TEST(!find_record_by_text(a, t, "#-1").has_value());
    BOOST_TEST(!find_record_by_text(a, t, "NONE").has_value());
    BOOST_TEST(!find_record_by_text(a, t, "#").has_value());  // "#" alone is a name, not an index
}

BOOST_AUTO_TEST_SUITE_END()
