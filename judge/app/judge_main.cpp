// judge: grades a scan, saxpy or render worker from outside it. Prints one
// tab-separated row per test and size (scene), and with --rows writes the
// same rows as JSON lines: the judge's own times of the timed calls (each
// on a fresh input, each checked) and, for a rejected row, the reason.
// judge_cli.h reads the command line, judge_rows.h prints the rows.
#include <cuda_runtime_api.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "common/cli.h"
#include "common/cuda_check.h"
#include "common/device.h"
#include "judge/cgroups.h"
#include "judge/contract.h"
#include "judge/render_judge.h"
#include "judge/saxpy_judge.h"
#include "judge/scan_judge.h"
#include "judge/seeds.h"
#include "judge/session.h"
#include "judge_cli.h"
#include "judge_results.h"
#include "judge_rows.h"
#include "judge_score.h"

namespace {

using judge_app::absolute;

constexpr char kProgram[] = "judge";

// The worker's log folder: --log-dir, hidden from the worker, or a new one.
void prepare_log_dir(judge::JudgeOptions& opt) {
  if (!opt.log_dir.empty()) {
    struct stat st {};
    if (stat(opt.log_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      throw common::UsageError("--log-dir: no such folder: " + opt.log_dir);
    // Its own and the other rows' logs are none of the worker's business
    // (a folder of our own under /tmp is out of its sight already).
    opt.log_dir = absolute(opt.log_dir, "--log-dir");
    opt.sandbox.hide.push_back(opt.log_dir);
  }
}

void make_log_dir(judge::JudgeOptions& opt) {
  if (!opt.log_dir.empty()) return;
  char name[] = "/tmp/judge-XXXXXX";
  if (!mkdtemp(name)) throw std::runtime_error("cannot make a log folder under /tmp");
  opt.log_dir = name;
  std::cerr << "judge: the worker's logs go to " << opt.log_dir << "\n";
}

// The worker's GPU, and no other, in its view (device memory only). Where
// its node cannot be told apart from the others', a sandboxed worker would
// see every GPU (CUDA_VISIBLE_DEVICES is the worker's to clear): refused,
// unless asked for (a student's own machine).
void bind_gpu(judge::JudgeOptions& opt, bool allow_every_gpu) {
  if (opt.memory != judge::MemoryKind::kDevice) return;
  common::require_cuda_device();
  int device = 0;
  char bus_id[32] = {};
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device));
  opt.sandbox.device_nodes = judge::gpu_device_nodes(bus_id, &opt.sandbox.one_gpu);
  if (opt.sandbox.one_gpu || opt.sandbox.unsandboxed || allow_every_gpu) return;
  throw std::runtime_error(std::string("cannot bind the GPU ") + bus_id +
                           " alone into the sandbox (its device node is not named in "
                           "/proc/driver/nvidia/gpus): the worker would see every GPU of this "
                           "machine (--allow-every-gpu grades so, for your own machine only)");
}

std::string sandbox_header(const judge::JudgeOptions& opt, const judge::SandboxPlan& plan) {
  const std::string how =
      plan.sandboxed ? std::string("bubblewrap") + (plan.drop_to_nobody ? ", as nobody" : "")
                     : "unsandboxed";
  std::string text = "# judge: worker " + opt.worker + "; sandbox: " + how +
                     (plan.limits_note.empty() ? "" : "; " + plan.limits_note) + "; memory " +
                     judge::memory_name(opt.memory);
  if (plan.sandboxed && opt.memory == judge::MemoryKind::kDevice)
    text += opt.sandbox.one_gpu
                ? "; the worker sees one GPU"
                : "; the worker sees every GPU (the judge's could not be told apart)";
  return text;
}

// The judge's options for one kind of worker: the common ones, then its own.
template <typename Options> Options options_for(const judge::JudgeOptions& common) {
  Options options;
  static_cast<judge::JudgeOptions&>(options) = common;
  return options;
}

// The reference and the graded worker timed interleaved (a judge's pair:
// scan's or render's): the reference's row, then (where the reference did
// not fail) the graded row with its score. True when both are correct.
template <typename Pair>
bool print_pair(const Pair& pair, const std::string& name, const std::string& item,
                const judge::SandboxPlan& plan, judge_app::RowPrinter& rows) {
  const auto& ref = pair.reference;
  const auto& row = pair.graded;
  rows.print("reference:" + name, item, ref.correct, ref.times_ms, ref.empty_ms, ref.charged_ms,
             ref.reason, plan.sandboxed, {{"role", "reference", true}});
  // A reference that failed grades nothing: the graded row is not written.
  // (One with no call timed, because the graded worker failed first, did
  // not fail.)
  if (!ref.reason.empty()) return false;
  // Scored at the times the row shows (4 decimals), as a table is read.
  const auto shown = [](double ms) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", ms);
    return std::strtod(text, nullptr);
  };
  judge_app::RowTimes times;
  if (ref.correct) {
    times.ref = shown(judge::best_of(ref.times_ms));
    times.ref_median = shown(judge::median_of(ref.times_ms));
  }
  if (row.correct) {
    times.best = shown(judge::best_of(row.times_ms));
    times.median = shown(judge::median_of(row.times_ms));
  }
  judge_app::Fields scored = {{"role", "graded", true}};
  for (judge_app::Field& f : judge_app::score_fields(*judge::part_rule(name), row.correct, times))
    scored.push_back(std::move(f));
  scored.push_back({"stable", pair.stable ? "true" : "false"});
  rows.print(name, item, row.correct, row.times_ms, row.empty_ms, row.charged_ms, row.reason,
             plan.sandboxed, scored);
  return row.correct;
}

int run(int argc, char** argv) {
  std::optional<judge_app::JudgeCommand> parsed = judge_app::parse_command_line(argc, argv);
  if (!parsed) return 0;
  const judge_app::JudgeCommand& command = *parsed;
  judge::JudgeOptions opt = command.options;
  if (command.time_limit_s > 0)
    opt.deadline = std::chrono::steady_clock::now() +
                   std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                       std::chrono::duration<double>(command.time_limit_s));
  opt.secret = judge::read_secret(command.secret_file);
  // The secret's file is the worker's to see no more than the logs.
  if (!command.secret_file.empty()) opt.sandbox.hide.push_back(command.secret_file);
  prepare_log_dir(opt);
  judge_app::RowPrinter rows(command.rows_file, command.rows_table_file);
  bind_gpu(opt, command.allow_every_gpu);
  // The judge's own workers and launcher lie beside its program, as the
  // build puts them.
  const std::string self = absolute("/proc/self/exe", "judge");
  const std::string own_dir = self.substr(0, self.rfind('/') + 1);
  if (access((own_dir + "judge_launch").c_str(), X_OK) == 0)
    opt.sandbox.launcher = own_dir + "judge_launch";
  const judge::SandboxPlan plan = judge::plan_sandbox(opt.sandbox);
  make_log_dir(opt);
  if (opt.memory == judge::MemoryKind::kDevice)
    opt.switch_ms = judge::measure_switch_ms(own_dir + "judge_calibration_worker", opt, plan);
  std::cout << sandbox_header(opt, plan);
  if (opt.memory == judge::MemoryKind::kDevice)
    std::cout << "; probe after a worker " << std::setprecision(4) << opt.switch_ms << " ms";
  std::cout << "\n";
  std::cout << "# test\tn\tstatus\tbest_ms\tmedian_ms\tempty_ms\tcharged_ms\truns\treason\n";
  bool all_ok = true;
  if (command.render) {
    auto ropt = options_for<judge::RenderJudgeOptions>(opt);
    ropt.size = command.size;
    ropt.empty_worker =
        own_dir + (opt.memory == judge::MemoryKind::kDevice ? "judge_render_empty"
                                                            : "judge_render_empty_host");
    ropt.charge_untimed = !command.trusted_untimed;
    for (const std::string& scene : command.scenes) {
      if (!command.reference_worker.empty()) {
        all_ok = print_pair(judge::judge_render_pair(scene, ropt, command.reference_worker, plan),
                            "render", scene, plan, rows) &&
                 all_ok;
        continue;
      }
      const judge::RenderRow row = judge::judge_render(scene, ropt, plan);
      all_ok = all_ok && row.correct;
      rows.print("render", scene, row.correct, row.times_ms, row.empty_ms, row.charged_ms,
                 row.reason, plan.sandboxed);
    }
  }
  if (command.saxpy) {
    for (std::int64_t n : command.counts) {
      if (opt.memory == judge::MemoryKind::kDevice) {
        const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
        rows.print("memcpy", std::to_string(bytes), true, {judge::device_copy_ms(bytes)}, 0, 0, "",
                   true);
      }
      if (judge::seconds_left(opt) <= 0) {
        for (const char* test : {"saxpy_trip", "saxpy_kernel"})
          rows.print(test, std::to_string(n), false, {}, 0, 0, judge::time_limit_reason(false),
                     plan.sandboxed);
        all_ok = false;
        continue;
      }
      for (const judge::SaxpyRow& row : judge::judge_saxpy(n, opt, plan)) {
        all_ok = all_ok && row.correct;
        rows.print(row.test, std::to_string(n), row.correct, row.times_ms, row.empty_ms,
                   row.charged_ms, row.reason, plan.sandboxed);
      }
    }
  }
  const auto sopt = options_for<judge::ScanJudgeOptions>(opt);
  for (judge::ScanTest test : command.scan_tests) {
    for (std::int64_t n : command.counts) {
      if (!command.reference_worker.empty()) {
        all_ok = print_pair(judge::judge_scan_pair(test, n, sopt, command.reference_worker, plan),
                            judge::test_name(test), std::to_string(n), plan, rows) &&
                 all_ok;
        continue;
      }
      const judge::ScanRow row = judge::judge_scan(test, n, sopt, plan);
      all_ok = all_ok && row.correct;
      rows.print(judge::test_name(test), std::to_string(n), row.correct, row.times_ms, row.empty_ms,
                 row.charged_ms, row.reason, plan.sandboxed);
    }
  }
  return all_ok ? 0 : 1;
}

// Ended by a signal (a cancelled job, a Slurm time limit's SIGTERM, ^C, a
// closed pipe, its own crash):
// whatever worker it held frozen is thawed first, so that it dies with
// the judge (its sandbox's SIGKILL, which cgroup v1 holds for frozen tasks).
extern "C" void end_thawed(int signal_number) {
  judge::cgroups::thaw_all();
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

} // namespace

int main(int argc, char** argv) {
  // Every signal that ends it by default, unless it was started ignoring
  // one (nohup, a background job's ^C).
  for (const int signal_number : {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1,
                                  SIGUSR2, SIGXCPU, SIGXFSZ, SIGABRT, SIGSEGV, SIGBUS, SIGFPE}) {
    struct sigaction old {};
    if (sigaction(signal_number, nullptr, &old) == 0 && old.sa_handler != SIG_IGN)
      std::signal(signal_number, end_thawed);
  }
  // Workers load every kernel when their CUDA context is made, before they
  // say they are ready, so no timed call pays for loading code. The sandbox
  // passes the variable on.
  common::load_kernels_eagerly();
  if (argc > 1 && std::string(argv[1]) == "score")
    return common::run_main(kProgram, [&] { return judge_app::run_score(argc - 1, argv + 1); });
  if (argc > 1 && std::string(argv[1]) == "results")
    return common::run_main(kProgram, [&] { return judge_app::run_results(argc - 1, argv + 1); });
  return common::run_main(kProgram, [&] { return run(argc, argv); });
}
