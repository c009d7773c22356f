// `tessera`: the product's ladders (reference, seed rungs, the API's picks,
// the vendor). The lab's experiments are in `tessera-lab` (lab/).
#include "cli.hpp"

int main(int argc, char** argv) { return tessera::cli::main(argc, argv); }
