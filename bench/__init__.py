"""satiate's benchmarks: programs that print numbers (evidence recall, loop cost, repeated work, scaling).

    python -m bench.multihop      # evidence recall on the multi-hop QA set, satiate vs fixed loops and ablations
    python -m bench.overhead      # orchestration overhead with a 50 ms search backend, with/without checkpointer
    python -m bench.repeat_work   # backend calls on a rerun and after a SIGKILL + resume
    python -m bench.scaling       # index/search time and peak memory at 1x, 4x, 16x the corpus

Results go to ``bench/results/`` (git-ignored). Timings live here, never in tests.
"""
