#include "json.hpp"

#include <cstdio>

namespace modkit {

Json::~Json() {
    std::fwrite(buffer_.GetString(), 1, buffer_.GetSize(), stdout);
    std::fputc('\n', stdout);
}

}  // namespace modkit
