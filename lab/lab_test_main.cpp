// The lab tests' main: the tuning rows join the ladders before any test runs.
#include <gtest/gtest.h>

#include "register_lab.hpp"

int main(int argc, char** argv) {
  tessera::lab::register_all();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
