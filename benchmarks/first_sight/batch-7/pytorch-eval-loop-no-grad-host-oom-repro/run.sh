#!/bin/bash
# The job runs under a ~3 GB address-space cap, like a memory-limited container / cluster slot.
ulimit -v 3000000
timeout 60 python repro.py
