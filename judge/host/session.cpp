#include "judge/session.h"

#include <algorithm>

#include <chrono>
#include <new>
#include <thread>

namespace judge {

double best_of(const std::vector<double>& times) {
  return times.empty() ? 0 : *std::min_element(times.begin(), times.end());
}

double median_of(std::vector<double> times) {
  if (times.empty()) return 0;
  std::sort(times.begin(), times.end());
  const std::size_t m = times.size() / 2;
  return times.size() % 2 ? times[m] : (times[m - 1] + times[m]) / 2;
}

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

} // namespace

Session::Session(const std::string& program, const std::vector<std::string>& args,
                 const std::vector<int>& inherit, const std::string& log_path,
                 const SandboxOptions& options, const SandboxPlan& plan)
    : page_(SharedMemory::create(sizeof(ControlBlock), "judge-control")) {
  block_ = new (page_.data()) ControlBlock{};
  block_->magic.store(kChannelMagic);
  std::vector<std::string> argv = {program};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<int> fds = {page_.fd()};
  fds.insert(fds.end(), inherit.begin(), inherit.end());
  worker_ = Worker::start(argv, fds, log_path, options, plan);
}

std::string Session::stop(const std::string& why) {
  worker_.kill();
  if (broken_.empty()) broken_ = why;
  return broken_;
}

std::string Session::wait_ready(double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  while (block_->worker_ready.load(std::memory_order_acquire) != 1) {
    if (auto ended = worker_.poll()) return stop("ended before it was ready (" + *ended + ")");
    if (Clock::now() > deadline)
      return stop("not ready within " + std::to_string(static_cast<int>(seconds)) + " s");
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return {};
}

Answer Session::call(Command command, std::int64_t n, double seconds, float scalar) {
  return send(command, n, seconds, scalar, false);
}

Answer Session::call_resuming(Command command, std::int64_t n, double seconds, float scalar) {
  return send(command, n, seconds, scalar, true);
}

Answer Session::send(Command command, std::int64_t n, double seconds, float scalar, bool resume) {
  Answer a;
  if (!broken_.empty()) {
    a.failure = broken_;
    return a;
  }
  // The worker may write anything to the page: only an answer that matches
  // the request just sent counts.
  if (block_->reply_seq.load(std::memory_order_acquire) != seq_) {
    a.failure = stop("answered a request it was not sent (broke the protocol)");
    return a;
  }
  // Whether it ran while held is looked at before the clock starts: the
  // look reads every task's time, which is the judge's cost, not the
  // worker's.
  if (resume) {
    const std::string ran = worker_.held_still();
    if (!ran.empty()) {
      paused_ = false;
      a.failure = stop(ran);
      return a;
    }
  }
  block_->command = static_cast<std::uint32_t>(command);
  block_->n = n;
  block_->scalar = scalar;
  const std::uint64_t seq = ++seq_;
  const auto deadline_span = std::chrono::duration<double>(seconds);
  const Clock::time_point start = Clock::now();
  block_->request_seq.store(seq, std::memory_order_release);
  if (resume) {
    paused_ = false;
    worker_.let_go();
  }
  Clock::time_point end;
  for (std::uint64_t spins = 0;; ++spins) {
    const std::uint64_t reply = block_->reply_seq.load(std::memory_order_acquire);
    if (reply == seq) {
      end = Clock::now();
      break;
    }
    if (reply != seq - 1) {
      a.failure = stop("answered a request it was not sent (broke the protocol)");
      return a;
    }
    if ((spins & 1023) == 0) {
      const Clock::time_point now = Clock::now();
      if (auto ended = worker_.poll()) {
        a.failure = stop("ended before answering (" + *ended + ")");
        return a;
      }
      if (now - start > deadline_span) {
        a.failure =
            stop("no answer within " + std::to_string(static_cast<int>(seconds)) + " s (a hang)");
        return a;
      }
    }
    cpu_relax(spins);
  }
  a.ms = ms_between(start, end);
  const std::int32_t status = block_->status;
  a.value = block_->value;
  if (status != static_cast<std::int32_t>(ReplyStatus::kDone)) {
    a.worker_failed = true;
    a.message = printable(block_->message, kMessageBytes);
  }
  return a;
}

double Session::empty_round_trip(int times, double seconds) {
  double best = -1;
  for (int i = 0; i < times; ++i) {
    const Answer a = call(Command::kPing, 0, seconds);
    if (!a.failure.empty()) return -1;
    if (best < 0 || a.ms < best) best = a.ms;
  }
  return best;
}

std::string Session::pause(double seconds) {
  if (!broken_.empty()) return broken_;
  paused_ = true;
  const std::string why = worker_.pause(seconds);
  return why.empty() ? why : stop(why);
}

std::string Session::resume() {
  paused_ = false;
  const std::string ran = worker_.resume();
  return ran.empty() ? ran : stop(ran);
}

std::string Session::quit() {
  std::string ran;
  // A paused worker cannot hear the request: it goes at once, once seen
  // to have stayed still.
  if (broken_.empty() && paused_) ran = worker_.held_still();
  if (broken_.empty() && !paused_) {
    block_->command = static_cast<std::uint32_t>(Command::kQuit);
    block_->request_seq.store(++seq_, std::memory_order_release);
    worker_.finish(5);
  }
  worker_.kill();
  return ran;
}

} // namespace judge
