#define BOOST_TEST_MODULE modkit
#include <boost/test/unit_test.hpp>
