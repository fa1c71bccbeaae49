#!/bin/bash
timeout 60 python repro.py
