# Dense row-major matrix helpers of the harness (labels, seeded inputs with
# marked padding, bitwise and tolerance checks), shared by the dense patterns.
list(APPEND TESSERA_CXX_SOURCES
  harness/matrix.cpp
)
