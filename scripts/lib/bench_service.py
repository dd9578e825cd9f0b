"""bench_service's rows by strategy: the service's own path (ServiceState::place,
85 tasks of examples/dt85.mat on 512 nodes), built first when missing."""
import json
import os
import subprocess


def service_results(root):
    binary = os.path.join(root, "bench", "bench_service")
    if not os.path.exists(binary):
        subprocess.run(["make", "-s", "-C", root, "bench/bench_service"], check=True)
    text = subprocess.run([binary, "--examples", os.path.join(root, "examples")], check=True,
                          capture_output=True, text=True).stdout
    return {r["strategy"]: r for r in json.loads(text)["results"]}
