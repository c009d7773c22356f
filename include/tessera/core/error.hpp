// tessera::Error: every failure (bad argument, CUDA error, allocation,
// malformed file) surfaces as this exception with a message that names the
// argument or call, its value and the sizes involved.
#pragma once

#include <stdexcept>
#include <string>

namespace tessera {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws Error(message) when `cond` is false. For argument validation at API
// boundaries; the message must name the argument and the offending value.
inline void require(bool cond, const std::string& message) {
  if (!cond) throw Error(message);
}

}  // namespace tessera
