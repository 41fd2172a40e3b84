"""The rin-jobs benchmark harness (issue 8): run it with bench/run.sh."""
