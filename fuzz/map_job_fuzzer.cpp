// The mapping worker's messages (service/map_job_codec.hpp): a job decoded
// from any bytes either fails with tofa::Error or encodes back to the same
// bytes; an answer decoded from any bytes fails with tofa::Error or is a
// placement of the expected size.
#include "base/error.hpp"
#include "fuzz_check.hpp"
#include "service/map_job_codec.hpp"

using namespace tofa::service;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes = tofa_fuzz::text_of(data, size);
  try {
    const std::unique_ptr<MapJob> job = decode_map_job(bytes);
    FUZZ_CHECK(job->request.graph == &job->graph && job->request.topology == job->topology.get(),
               "decoded request does not point into its job");
    const std::unique_ptr<MapJob> again = decode_map_job(encode_map_job(job->request, job->strategy));
    FUZZ_CHECK(again->graph.undirected_edges().size() == job->graph.undirected_edges().size() &&
                   again->request.candidate_nodes == job->request.candidate_nodes &&
                   again->strategy == job->strategy,
               "a re-encoded job decodes differently");
  } catch (const tofa::Error&) {
  }
  const int tasks = size > 0 ? data[0] : 0;
  try {
    FUZZ_CHECK(decode_map_result(bytes, tasks).size() == static_cast<std::size_t>(tasks),
               "placement of the wrong size");
  } catch (const tofa::Error&) {
  }
  return 0;
}
