import type { DetectorInfo } from "../catalog.js";

/** Catalog records of the cross-run detectors (docs/experiments.md, knowledge mapping). */
export const experimentDetectors: DetectorInfo[] = [
  {
    id: "experiment.within_noise",
    rule: "EX-01",
    title: "The best configuration's lead is within seed noise",
    threshold: "mean difference to the best configuration below t(0.975, df)·σ·√(1/n₁+1/n₂); σ pooled over configurations repeated with several seeds, else the runs' own evaluation noise",
    severities: ["medium"],
    basis: "Bouthillier et al. 2021; Deep Learning Tuning Playbook",
  },
  {
    id: "experiment.boundary_optimum",
    rule: "EX-02",
    title: "Best value of a swept hyper-parameter at the edge of the range tried",
    threshold: "numeric parameter with ≥ 3 values tried; the value with the best configuration is the smallest or largest; medium when it beats its neighbour by more than 2σ",
    severities: ["medium", "low"],
    basis: "Deep Learning Tuning Playbook (search-space boundaries, basin plots)",
  },
  {
    id: "experiment.sensitivity",
    rule: "EX-03",
    title: "Objective sensitivity to each hyper-parameter",
    threshold: "Spearman ρ over ≥ 5 finished runs and ≥ 3 values; 95 % interval by Fisher z with variance 1.06/(n−3)",
    severities: ["info"],
    basis: "Fieller, Hartley & Pearson 1957; Deep Learning Tuning Playbook",
  },
  {
    id: "experiment.failed_runs",
    rule: "EX-04",
    title: "Failed or diverged runs and what they share",
    threshold: "objective or train loss ending non-finite, a high divergence/non-finite/OOM finding, or no objective; shared cause: a threshold or value every failed run has and no finished run",
    severities: ["high", "medium"],
    basis: "Deep Learning Tuning Playbook (infeasible trials)",
  },
  {
    id: "experiment.regression",
    rule: "EX-05",
    title: "Regression against the baseline beyond seed noise",
    threshold: "best and final objective both worse by more than t(0.99, df)·σ·√(1/n₁+1/n₂), or every run of the candidate failed while the baseline finished",
    severities: ["critical", "high"],
    basis: "Bouthillier et al. 2021",
  },
  {
    id: "experiment.pick",
    rule: "EX-06",
    title: "The run to pick",
    threshold: "best configuration by mean objective over its seeds; ties within noise named",
    severities: ["info"],
    basis: "Deep Learning Tuning Playbook",
  },
  {
    id: "experiment.shared_run_findings",
    rule: "EX-07",
    title: "Per-run findings shared across runs",
    threshold: "a per-run finding id in ≥ 2 runs",
    severities: ["critical", "high", "medium", "low", "info"],
    basis: "Deep Learning Tuning Playbook (inspect the best trials' curves)",
  },
  {
    id: "experiment.no_seed_replicates",
    rule: "EX-08",
    title: "No configuration repeated with another seed",
    threshold: "no two finished runs share every swept parameter but the seed",
    severities: ["info"],
    basis: "Bouthillier et al. 2021",
  },
];
