// One worker under the judge: its control page, the sandboxed process, and
// timed requests. The judge's clock runs from the moment the request is
// published to the moment the answer is seen; the worker's own view of time
// is never asked for.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "judge/channel.h"
#include "judge/sandbox.h"

namespace judge {

struct Answer {
  double ms = 0;              // request to answer, on the judge's clock
  std::string failure;        // set when there is no usable answer (hang, crash, protocol)
  bool worker_failed = false; // the worker answered that the call failed
  std::string message;        // its message then (printable, bounded)
  std::int64_t value = 0;     // the answer's value (find_repeats' count)
};

// How long a worker may take to stop when the judge holds it still.
constexpr double kPauseSeconds = 5;

// The fastest and the median of a row's times (0 for none).
double best_of(const std::vector<double>& times);
double median_of(std::vector<double> times);

class Session {
public:
  // Starts `program` with `args`; `inherit` become its descriptors 4, 5, ...
  // (3 is the control page). Standard output and error go to `log_path`.
  Session(const std::string& program, const std::vector<std::string>& args,
          const std::vector<int>& inherit, const std::string& log_path,
          const SandboxOptions& options, const SandboxPlan& plan);

  // Empty when the worker said it is ready within `seconds`, else why not.
  std::string wait_ready(double seconds);
  // One request; `seconds` bounds the wait for its answer. After a failure
  // the worker has been stopped and every later call fails the same way.
  Answer call(Command command, std::int64_t n, double seconds, float scalar = 0);
  // As call(), for a paused worker: the clock starts, then the worker is
  // resumed and asked, so whatever it does once it can run again (a thread
  // that watched the inputs being written) is timed.
  Answer call_resuming(Command command, std::int64_t n, double seconds, float scalar = 0);
  // The fastest of `times` empty round trips (ms).
  double empty_round_trip(int times, double seconds);
  // Asks the worker to leave and waits a moment; kills it if it stays. A
  // worker held still until then is killed at once: empty, or why it is
  // rejected (Worker::held_still: it ran while held).
  std::string quit();
  // Holds the worker still (Worker::pause) while another is timed: empty,
  // or why not (the worker is then stopped and every later call fails).
  std::string pause(double seconds);
  // Lets it go on: empty, or why it is rejected (it ran while held; it is
  // then stopped and every later call fails so).
  std::string resume();

private:
  Answer send(Command command, std::int64_t n, double seconds, float scalar, bool resume);
  std::string stop(const std::string& why);
  SharedMemory page_;
  ControlBlock* block_ = nullptr;
  Worker worker_;
  std::uint64_t seq_ = 0;
  std::string broken_;
  bool paused_ = false;
};

} // namespace judge
