#include "libmod/core/error.hpp"

#include "test_support.hpp"

using namespace mod;

BOOST_AUTO_TEST_SUITE(error)

BOOST_AUTO_TEST_CASE(message_has_file_offset_path_and_reason) {
    Error e(ErrorKind::format, "relocation type 9 is unknown", "rom.z64", 0x24E44, "archive[12].fragment.reloc[40]");
    BOOST_TEST(std::string(e.what()) ==
               "rom.z64: offset 0x24E44: archive[12].fragment.reloc[40]: relocation type 9 is unknown");
    Error bare(ErrorKind::usage, "missing argument in");
    BOOST_TEST(std::string(bare.what()) == "missing argument in");
    BOOST_TEST(!bare.has_offset());
}

BOOST_AUTO_TEST_CASE(containers_can_add_context_afterwards) {
    Error e(ErrorKind::format, "bad magic", {}, 0, "yay0");
    e.set_file_if_empty("rom.z64").prefix_path("archive[4].szp");
    BOOST_TEST(e.path() == "archive[4].szp.yay0");
    BOOST_TEST(std::string(e.what()) == "rom.z64: offset 0x0: archive[4].szp.yay0: bad magic");
    e.set_file_if_empty("other");
    BOOST_TEST(e.file() == "rom.z64");
}

BOOST_AUTO_TEST_CASE(control_bytes_from_input_files_are_escaped) {
    // A name read from a file that holds a newline and an escape sequence cannot split the
    // one-line message or drive the terminal.
    Error e(ErrorKind::format, std::string("entry 'a\nmodkit: fine\x1b[2J' is bad\x7f"), "dir/x\ry.pak", 3,
            std::string("pak.entry[1]\t"));
    const std::string what = e.what();
    BOOST_TEST(what == "dir/x\\x0Dy.pak: offset 0x3: pak.entry[1]\\x09: entry 'a\\x0Amodkit: fine\\x1B[2J' is bad\\x7F");
    BOOST_TEST(what.find('\n') == std::string::npos);
    // The parts themselves stay as given; UTF-8 passes through.
    BOOST_TEST(e.message().find('\n') != std::string::npos);
    BOOST_TEST(escape_controls("Pok\xC3\xA9mon\x01") == "Pok\xC3\xA9mon\\x01");
}

BOOST_AUTO_TEST_CASE(offsets_can_be_rebased_or_say_their_buffer) {
    Error e(ErrorKind::format, "bad", "rom.z64", 0x19C8, "archive[3]");
    e.rebase_offset(0x920000);
    BOOST_TEST(e.offset() == 0x9219C8u);
    BOOST_TEST(std::string(e.what()) == "rom.z64: offset 0x9219C8: archive[3]: bad");
    Error d(ErrorKind::format, "bad", "rom.z64", 0x40, "archive[3].fragment");
    d.set_offset_buffer("the data decompressed from archive[3]");
    BOOST_TEST(std::string(d.what()) == "rom.z64: offset 0x40 in the data decompressed from archive[3]: archive[3].fragment: bad");
    Error none(ErrorKind::io, "gone", "f");
    none.rebase_offset(5).set_offset_buffer("x");
    BOOST_TEST(std::string(none.what()) == "f: gone");
}

BOOST_AUTO_TEST_CASE(exit_codes_follow_the_cli_contract) {
    BOOST_TEST(exit_code(ErrorKind::usage) == 1);
    BOOST_TEST(exit_code(ErrorKind::format) == 2);
    BOOST_TEST(exit_code(ErrorKind::limit) == 3);
    BOOST_TEST(exit_code(ErrorKind::conflict) == 3);
    BOOST_TEST(exit_code(ErrorKind::io) == 4);
}

BOOST_AUTO_TEST_CASE(paths_join_with_dots_and_brackets) {
    BOOST_TEST(join_path("", "archive") == "archive");
    BOOST_TEST(join_path("archive", "[3]") == "archive[3]");
    BOOST_TEST(join_path("archive[3]", "fragment") == "archive[3].fragment");
    BOOST_TEST(join_path("archive[3]", ".fragment") == "archive[3].fragment");
    BOOST_TEST(join_path("", ".yay0") == "yay0");
    BOOST_TEST(index_path("reloc", 40) == "reloc[40]");
}

BOOST_AUTO_TEST_SUITE_END()
