// libmod/core/rapidjson.hpp: RapidJSON through our Stack (issue 22). RapidJSON 1.1.0's own
// Stack added an offset to a null pointer on the first push of every reader, writer, document
// and string buffer, which clang's UBSan (pointer-overflow) stops on: this suite then failed in
// the sanitizer build on its first Parse. It also checks the replacement does what the
// original did: growth from nothing, growth past the initial capacity, shrink, move, swap.
#include "libmod/core/rapidjson.hpp"

#include "test_support.hpp"

#include <string>

BOOST_AUTO_TEST_SUITE(rapidjson_config)

BOOST_AUTO_TEST_CASE(our_stack_replaces_the_original) {
#if defined(MODKIT_RAPIDJSON_STACK)
    BOOST_TEST(MODKIT_RAPIDJSON_STACK == 1);
#else
    BOOST_FAIL("libmod/core/rapidjson.hpp did not provide internal::Stack (RapidJSON is not 1.1, or it was included first)");
#endif
}

BOOST_AUTO_TEST_CASE(parse_and_write_round_trip_through_growing_stacks) {
    // Deep nesting and a long escaped string grow the reader's, the document's and the
    // writer's stacks well past their initial capacities.
    std::string text;
    const int depth = 300;
    for (int i = 0; i < depth; ++i) text += "{\"k\":[";
    std::string long_string(5000, 'x');
    long_string[17] = '"';
    text += "\"";
    for (char c : long_string) text += c == '"' ? std::string("\\\"") : std::string(1, c);
    text += "\"";
    for (int i = 0; i < depth; ++i) text += "]}";
    rapidjson::Document doc;
    doc.Parse(text.c_str(), text.size());
    BOOST_REQUIRE(!doc.HasParseError());
    const rapidjson::Value* v = &doc;
    for (int i = 0; i < depth; ++i) v = &(*v)["k"][0];
    BOOST_TEST(std::string(v->GetString(), v->GetStringLength()) == long_string);

    rapidjson::StringBuffer compact;
    rapidjson::Writer<rapidjson::StringBuffer> writer(compact);
    BOOST_REQUIRE(doc.Accept(writer));
    BOOST_TEST(std::string(compact.GetString(), compact.GetSize()) == text);
    compact.ShrinkToFit();
    BOOST_TEST(std::string(compact.GetString(), compact.GetSize()) == text);
    compact.Clear();
    compact.ShrinkToFit();
    BOOST_TEST(compact.GetSize() == 0u);
    compact.Put('a');
    BOOST_TEST(std::string(compact.GetString()) == "a");

    rapidjson::StringBuffer pretty;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> pw(pretty);
    BOOST_REQUIRE(doc.Accept(pw));
    rapidjson::Document again;
    again.Parse(pretty.GetString());
    BOOST_REQUIRE(!again.HasParseError());
    BOOST_TEST((again == doc));

    // Moved and swapped documents keep their values; a parse error is reported, not UB.
    rapidjson::Document moved(std::move(again));
    rapidjson::Document other;
    other.Parse("[1,2,3]");
    moved.Swap(other);
    BOOST_TEST(moved.IsArray());
    BOOST_TEST((other == doc));
    rapidjson::Document bad;
    bad.Parse("{\"a\": [1, 2");
    BOOST_TEST(bad.HasParseError());
    BOOST_TEST(std::string(rapidjson::GetParseError_En(bad.GetParseError())).size() > 0u);
    const rapidjson::Value* found = rapidjson::Pointer("/k/0/k/0").Get(doc);
    BOOST_TEST(found != nullptr);
}

BOOST_AUTO_TEST_SUITE_END()
