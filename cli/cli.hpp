// The `tessera` command line as a function, so that the product's executable
// and the lab's (which first adds its tuning rows to the ladders) share it.
#pragma once

namespace tessera::cli {

int main(int argc, char** argv);

}  // namespace tessera::cli
