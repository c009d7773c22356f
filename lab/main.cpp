// `tessera-lab`: the `tessera` command with the lab's tuning rows added to
// every family's ladder (lab/CMakeLists.txt).
#include "cli.hpp"
#include "register_lab.hpp"

int main(int argc, char** argv) {
  tessera::lab::register_all();
  return tessera::cli::main(argc, argv);
}
