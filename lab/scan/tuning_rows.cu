// tuning_lookback.cuh's table as ladder rows: one row per entry, step 9,
// Role::tuning, the entry's kernel template run under its policy.
#include <tuple>
#include <vector>

#include "scan/tuning_lookback.cuh"
#include "scan/tuning_rows.hpp"

namespace tessera::lab {

namespace {

using scan_impl::ScanCall;
using scan_impl::ScanVariant;

template <class Entry>
void run_entry(const ScanCall& call) {
  Entry::Kernel::run(Entry::name, call);
}

template <class Entry>
ScanVariant row_of() {
  return {{"scan", Entry::name, 9, Backend::cuda, Role::tuning, Entry::adds, false},
          scan_impl::four_byte_native,
          Entry::Kernel::workspace,
          run_entry<Entry>};
}

template <class... Entries>
std::vector<ScanVariant> rows_of(std::tuple<Entries...>*) {
  return {row_of<Entries>()...};
}

}  // namespace

std::span<const ScanVariant> scan_tuning_rows() {
  static const std::vector<ScanVariant> rows = rows_of(static_cast<scan_tuning::Table*>(nullptr));
  return rows;
}

}  // namespace tessera::lab
