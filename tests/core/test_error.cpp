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
