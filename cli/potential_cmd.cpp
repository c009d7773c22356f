// `tessera potential MOL.pqr OUT.dx [--spacing H] [--padding P] [--cutoff C]`.
// Reads the charges (tessera::potential::read_pqr), puts a lattice around
// them, computes the potential with the public API (on the GPU when there is
// one, device memory; else the CPU policy's rung on host memory), writes it
// as OpenDX through AtomicFile, and prints the atom count, the lattice, the
// method, the times and the atom evaluations per second. Every problem with
// the options or the input file is found before anything is computed or
// written (exit 2).
#include "potential_cmd.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/gpu_present.hpp"
#include "exit_codes.hpp"
#include "tessera/apps/potential_files.hpp"
#include "tessera/core/pending_files.hpp"
#include "tessera/coulomb.hpp"
#include "tessera/cutoff.hpp"

#if TESSERA_HAVE_CUDA
#include "tessera/core/buffer.hpp"
#endif

namespace tessera::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The output must be creatable: its directory exists and is writable.
void check_out_path(const std::string& out) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(out).has_parent_path() ? fs::path(out).parent_path() : fs::path(".");
  if (::access(dir.c_str(), W_OK) != 0)
    throw UsageError(fmt::format("{}: cannot write in '{}': {}", out, dir.string(), std::strerror(errno)));
  if (fs::is_directory(out)) throw UsageError(fmt::format("{}: is a directory", out));
}

// A cutoff must be a positive distance (checked before any file is read).
void require_method(const PotentialArgs& args) {
  if (args.cutoff && !(std::isfinite(*args.cutoff) && *args.cutoff > 0))
    throw UsageError(fmt::format("--cutoff {}: must be a positive distance in Å", *args.cutoff));
}

struct Computed {
  std::string method;
  double setup_s = 0;  // device memory and copies (GPU): outside the rate
  double sum_s = 0;    // the library call: what the rates count
};

// The one place a method is chosen: the direct sum, or with --cutoff the
// smoothed cutoff sum; each through its public API and its policy's variant.
struct Method {
  std::string name;
  std::string variant;
  void operator()(const Atom* atoms, std::size_t n, const Lattice& L, float* out, const std::optional<float>& c) const {
    if (c)
      cutoff_potential(atoms, n, L, *c, out);
    else
      coulomb_potential(atoms, n, L, out);  // both return when the values are written
  }
};

Method method_of(const PotentialArgs& args, const std::vector<Atom>& atoms, const Lattice& L) {
  if (args.cutoff)
    return {fmt::format("smoothed cutoff sum, c = {} Å (tessera::cutoff_potential", *args.cutoff),
            cutoff_default_variant(atoms.size(), L, *args.cutoff)};
  return {"direct Coulomb sum (tessera::coulomb_potential", coulomb_default_variant(atoms.size(), L)};
}

Computed compute(const PotentialArgs& args, const std::vector<Atom>& atoms, const Lattice& L,
                 std::vector<float>& out) {
  require_method(args);
  Computed c;
  const Method m = method_of(args, atoms, L);
#if TESSERA_HAVE_CUDA
  if (api::gpu_present()) {
    const auto setup = Clock::now();
    DeviceBuffer<Atom> d_atoms(atoms.size(), "potential: atoms");
    d_atoms.upload(atoms.data(), atoms.size());
    DeviceBuffer<float> d_out(L.points(), "potential: lattice values");
    c.setup_s = seconds_since(setup);
    const auto sum = Clock::now();
    m(d_atoms.data(), atoms.size(), L, d_out.data(), args.cutoff);
    c.sum_s = seconds_since(sum);
    const auto back = Clock::now();
    d_out.download(out.data(), out.size());
    c.setup_s += seconds_since(back);
    c.method = fmt::format("{}, variant {}, GPU)", m.name, m.variant);
    return c;
  }
#endif
  const auto sum = Clock::now();
  m(atoms.data(), atoms.size(), L, out.data(), args.cutoff);
  c.sum_s = seconds_since(sum);
  c.method = fmt::format("{}, variant {}, CPU)", m.name, m.variant);
  return c;
}

}  // namespace

CLI::App* add_potential_command(CLI::App& app, PotentialArgs& a) {
  auto* cmd = app.add_subcommand("potential", "electrostatic potential of a PQR file's charges on a lattice around "
                                              "them, written as OpenDX (sum q/r, no constant factor)");
  cmd->add_option("MOL", a.pqr, "the charges: a PQR file (ATOM/HETATM records as PDB2PQR and APBS write them)")
      ->required();
  cmd->add_option("OUT", a.dx, "the potential map: OpenDX, written atomically")->required();
  cmd->add_option("--spacing", a.spacing, "lattice spacing in Å")->capture_default_str();
  cmd->add_option("--padding", a.padding, "margin around the atoms' bounding box in Å")->capture_default_str();
  cmd->add_option("--cutoff", a.cutoff, "cutoff distance in Å (the smoothed cutoff sum instead of the direct sum)");
  return cmd;
}

int potential_cmd(const PotentialArgs& args) {
  require_method(args);
  check_out_path(args.dx);
  tessera::remove_temporaries_on_signals();  // ^C while OUT is written: its temporary goes too
  const auto start = Clock::now();
  std::vector<Atom> atoms;
  Lattice L;
  try {
    atoms = potential::read_pqr(args.pqr);
    L = potential::lattice_around(atoms, args.spacing, args.padding);
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {  // the file and the options: input errors
    throw UsageError(e.what());
  }
  const double read_s = seconds_since(start);
  fmt::print("atoms    {}: {} atoms\n", args.pqr, atoms.size());
  fmt::print("lattice  {} x {} x {} = {} points at {} Å, origin ({:.3f}, {:.3f}, {:.3f}), padding {} Å\n", L.nx,
             L.ny, L.nz, L.points(), L.spacing, L.origin[0], L.origin[1], L.origin[2], args.padding);

  std::vector<float> values(L.points());
  const Computed c = compute(args, atoms, L, values);
  const auto write_start = Clock::now();
  potential::write_dx(args.dx, L, values,
                      fmt::format("tessera potential {}: sum q/r in e/Å (no constant factor), {}", args.pqr, c.method));
  const double write_s = seconds_since(write_start);

  // The direct sum evaluates every atom at every point; the cutoff sum only
  // the atoms within c, so its rate is given in lattice points.
  const double work = args.cutoff ? double(L.points()) : double(atoms.size()) * double(L.points());
  const char* unit = args.cutoff ? "lattice points/s" : "atom evaluations/s";
  fmt::print("method   {}\n", c.method);
  fmt::print("time     read {:.3f} s, sum {:.3f} s ({:.4g} {}), copies {:.3f} s, write {:.3f} s, total {:.3f} s\n",
             read_s, c.sum_s, c.sum_s > 0 ? work / c.sum_s : 0.0, unit, c.setup_s, write_s, seconds_since(start));
  fmt::print("wrote    {}\n", args.dx);
  return exit_ok;
}

}  // namespace tessera::cli
