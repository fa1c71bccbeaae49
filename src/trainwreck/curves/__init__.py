"""Metric curves: read a run's metric history wherever it was logged, find its events.

`readers` turns files (trainer_state.json, JSONL, CSV, MLflow, TensorBoard) and
`textlog` turns printed log lines into one `MetricTable` per source; `detect`
runs the NumPy detectors over a table and returns Findings with their arithmetic.
NumPy is imported here and below only; the pipeline imports these modules at its top
(evidence, analyzers, fixes), so every diagnosis loads NumPy, curves or not.
"""
