import type { CheckOutcome, ChecksReport } from "../../../nodes/checks/model.js";

/** A normalized check outcome: a failed Deepchecks check with no numbers, unless the test says otherwise. */
export function outcome(fields: Partial<CheckOutcome> & Pick<CheckOutcome, "category">): CheckOutcome {
  return {
    tool: "deepchecks",
    report: null,
    name: "Some Check",
    condition: null,
    status: "fail",
    message: "",
    observed: null,
    threshold: null,
    columns: [],
    details: [],
    values: {},
    notApplicable: false,
    path: "checks_artifacts.reports[0]",
    ...fields,
  };
}

/** A normalized checks report holding the given outcomes and nothing else the test does not set. */
export function report(outcomes: CheckOutcome[], fields: Partial<ChecksReport> = {}): ChecksReport {
  return {
    field: "checks_artifacts",
    outcomes,
    reports: [],
    reportDatasetName: null,
    requestDatasetName: null,
    suitesSkipped: [],
    rowCounts: [],
    columnSets: [],
    unreadable: [],
    stated: { columns: [], duplicates: null, target: null },
    ...fields,
  };
}
