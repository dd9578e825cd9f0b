// Standard Workload Format (Parallel Workloads Archive): jobs of a trace in,
// jobs of a generated stream out.
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace tofa::harness {

/// One job of a stream, as the scheduler sees it.
struct StreamJob {
  long id = 0;                ///< SWF job number
  double submit = 0;          ///< seconds
  double runtime = 0;         ///< actual run time, seconds (> 0)
  double requested_time = 0;  ///< the user's estimate (runtime when unknown)
  int tasks = 0;              ///< requested processors, else allocated processors (> 0)
  int user = 0;               ///< SWF user id (-1 when unknown)
};

/// Jobs a reader left out, by reason.
struct SwfSkipped {
  long no_runtime = 0;  ///< run time unknown or <= 0 (cancelled before starting, ...)
  long no_tasks = 0;    ///< neither requested nor allocated processors > 0
  long no_submit = 0;   ///< submit time unknown (< 0)
  long total() const { return no_runtime + no_tasks + no_submit; }
};

struct SwfTrace {
  std::vector<StreamJob> jobs;  ///< in file order
  SwfSkipped skipped;
  std::vector<std::string> header;  ///< the ';' lines, without the ';'
  long max_procs = -1;              ///< header "MaxProcs: N", -1 when absent
  long max_nodes = -1;              ///< header "MaxNodes: N", -1 when absent
};

/// Number of fields of an SWF job line.
inline constexpr int kSwfFields = 18;

/// Parses SWF text: ';' starts a comment line (header), blank lines are
/// ignored, every other line has exactly 18 numbers (-1 = unknown). A job
/// is skipped (and counted) when its run time is unknown or <= 0, it has no
/// processor count, or no submit time. Throws tofa::ParseError
/// "SOURCE:LINE:COLUMN: expected ..." on a field that is not a number (or not
/// an integer where one is needed: job number, processors, user) and on a
/// line with another number of fields (column 0). O(size of the text).
SwfTrace parse_swf(std::istream& in, const std::string& source_name);

/// parse_swf on a file. Throws tofa::Error when it cannot be opened.
SwfTrace read_swf(const std::string& path);

/// Writes a valid SWF: header comments (Version 2.2, `comment` lines, MaxJobs,
/// MaxRecords, MaxProcs = `max_procs` when >= 1), then one line per job with
/// job number, submit, run time, processors (allocated and requested),
/// requested time, status 1 and user; the other fields -1. Numbers are
/// written so that parse_swf reads back the same values.
void write_swf(std::ostream& out, const std::vector<StreamJob>& jobs,
               const std::vector<std::string>& comment = {}, long max_procs = -1);

/// write_swf to a file. Throws tofa::Error when it cannot be written.
void write_swf_file(const std::string& path, const std::vector<StreamJob>& jobs,
                    const std::vector<std::string>& comment = {}, long max_procs = -1);

}  // namespace tofa::harness
