import { existsSync } from "node:fs";
import type { DetectorInfo } from "../../../nodes/catalog.js";

/**
 * Finding ids the analyzers emit or are building (DETECTORS.md §2, as assigned to the analyzer engineers), with
 * a realistic finding text for each: the title and description a detector writes.
 */
export const KNOWN_FINDINGS: Record<string, string> = {
  "training.nonfinite_loss": "Non-finite training loss. train/loss became NaN at step 2610 and stayed NaN afterwards.",
  "training.divergence": "Training loss diverges. Smoothed train loss fell to 0.91 then climbed back to 2.4, above its starting value.",
  "training.loss_spikes": "Loss spikes that do not recover. Four spikes above the rolling median; each left the loss higher than before.",
  "training.no_learning": "The model does not learn. Train loss improved by less than 1% from the first to the last window and stays near chance level ln K.",
  "training.init_loss_sanity": "Suspicious loss at initialization. The first logged loss 9.8 is more than three times ln K = 2.48 for 12 classes.",
  "training.plateau": "Validation loss plateau. No relative improvement above 1e-4 over the last 14 evaluations while far from fitting.",
  "training.oscillation": "Oscillating validation accuracy late in training. Accuracy swings of 0.04 between evaluations in the last 30% of the run.",
  "training.lr_too_high": "Learning rate too high. Loss blew up within the first 10% of steps right after reaching the peak learning rate 3e-3.",
  "training.lr_too_low": "Learning rate too low. The loss is still decreasing linearly at the last step with learning rate 5e-6; training ended while still improving.",
  "training.vanishing_gradients": "Vanishing gradients. Global gradient norm fell below 1e-3 of its early median while the loss stopped improving.",
  "training.exploding_gradients": "Exploding gradients. grad_norm rose from 0.5 to 407 and then became NaN.",
  "training.over_clipping": "Gradient clipping too aggressive. 78% of steps have grad_norm at or above max_grad_norm 1.0.",
  "training.overfitting": "Overfitting. Validation loss bottomed at 0.55 at epoch 23 and rose to 1.18 by epoch 59 while training loss kept falling to 0.009.",
  "training.generalization_gap": "Large generalization gap. Final train accuracy 0.968 against validation accuracy 0.748.",
  "training.early_stop_opportunity": "Training ran long after the best epoch. The best validation loss was at epoch 23 of 60: 61% of the epochs came after it.",
  "training.underfitting": "Underfitting. Train accuracy 0.31 stays within 5 points of the majority-class rate 0.29 with a small gap to validation.",
  "training.metric_frozen": "Validation accuracy frozen. val/acc stayed at 0.6900 for 25 evaluations, equal to a class prior.",
  "training.train_val_inversion": "Validation better than training. Validation loss is below training loss in 95% of epochs.",
  "training.suspicious_perfection": "Suspiciously perfect validation score. Validation accuracy 0.995 after the first epoch.",
  "training.lr_schedule": "Learning-rate schedule issue. The logged learning rate is constant although a cosine scheduler is configured; warmup covers 15% of steps.",
  "training.amp_overflow": "Mixed-precision overflow. The fp16 loss scale halved repeatedly to 1 and 7% of steps were skipped.",
  "training.eval_coverage": "Too few validation points. Only 3 validation evaluations were logged for 60 epochs.",
  "training.seed_variance": "Improvement within seed noise. A single seed was run and the claimed improvement is smaller than twice the seed standard deviation.",
  "training.cuda_oom": "CUDA out of memory. The log reports torch.cuda.OutOfMemoryError: tried to allocate 2.00 GiB at epoch 3.",
  "training.dataloader_bottleneck": "Data loading may bottleneck training. Lightning warns the train dataloader does not have many workers which may be a bottleneck.",
  "training.nonfinite_warnings": "NaN/Inf warnings in the logs. Lines report NaN detected in gradients at step 2610.",
  "training.dataloader_errors": "Data loader errors. Two DataLoader warnings in the logs: worker exited unexpectedly.",
  "dataset.class_imbalance": "Class imbalance. The training split has a 25:1 ratio between beverages (2,500) and baby_care (100).",
  "dataset.rare_class": "Rare class. Class 'tomato_mosaic' has 4 training examples, fewer than the 5 cross-validation folds.",
  "dataset.unseen_labels": "Labels missing from training. The test split contains class 'churned_partial' which never appears in the training split.",
  "dataset.split_label_shift": "Class mix differs between splits. The class mix of test differs from train (Cramér's V 0.28; beverages is 36% of train but 12% of test).",
  "dataset.missing_values": "Missing values. Column last_login_days is 40% null.",
  "dataset.constant_feature": "Constant feature. Column country has a single distinct value in all rows.",
  "dataset.id_like_column": "ID-like column. order_id has a distinct value in every row.",
  "dataset.duplicates": "Duplicate rows. 7% of training rows are exact duplicates.",
  "dataset.train_test_overlap": "Train/test overlap. 42% of test rows (5,216 of 12,368) also appear in train.",
  "dataset.conflicting_labels": "Conflicting labels. 180 groups of identical feature rows carry different labels (3.4% of rows).",
  "dataset.label_noise": "Label noise. cleanlab flags 6.2% of the training labels as likely errors.",
  "dataset.nonfinite_features": "Non-finite feature values. Column ratio_income_debt contains 312 Inf and 45 NaN values.",
  "dataset.unnormalized_inputs": "Inputs not normalized. Feature values range up to 250,000 and image channel means are around 120 instead of near zero.",
  "dataset.label_predictive_feature": "A single feature predicts the label. refund_status has predictive power score 0.97 for the label.",
  "dataset.post_outcome_column": "Possible post-outcome feature (target leakage risk). refund_status looks like a field filled in after the outcome is known.",
  "dataset.collinearity": "Collinear features. total_charges and monthly_charges correlate at r = 0.97.",
  "dataset.split_sizes": "Validation split too small. 150 validation rows give a standard error of 3 points on accuracy.",
  "dataset.small_dataset": "Small dataset. 420 training rows for 85 features, about 5 rows per feature.",
  "dataset.covariate_shift": "Covariate shift. Test channel means are 0.04 to 0.07 higher than train; brightness distribution differs.",
  "checks.integrity_failed": "Data integrity check failed. Deepchecks Mixed Nulls and String Mismatch conditions failed in the data_integrity suite.",
  "checks.leakage_failed": "Leakage check failed. Deepchecks Train Test Samples Mix failed: 42.17% of test samples appear in train, threshold 5%.",
  "checks.feature_drift": "Feature drift. Evidently ValueDrift flags data_usage_gb (0.41) and monthly_charges (0.31).",
  "checks.dataset_drift": "Dataset drift. 6 of 10 columns drifted (share 0.6), DriftedColumnsCount test failed.",
  "checks.label_drift": "Label drift. Deepchecks Label Drift failed with Cramer's V 0.28 between train and test.",
  "checks.schema_anomaly": "Schema anomaly. TFDV reports SCHEMA_NEW_COLUMN and an unexpected type for column age.",
  "checks.expectation_failed": "Great Expectations failures. expect_column_values_to_not_be_null failed with unexpected_percent 12.5.",
  "checks.new_labels": "Test labels missing from train. Deepchecks New Label check: 2 test labels never appear in train.",
  "checks.prediction_drift": "Prediction drift. Deepchecks Prediction Drift 0.21: the distribution of predicted classes differs between train and test.",
  "checks.shortcut_risk": "Shortcut: a feature predicts the label only in train. Brightness predicts late_blight in train (PPS 0.42) but not in test; Property Label Correlation Change failed.",
  "checks.model_eval_failed": "Model evaluation check failed. Simple Model Comparison gain 0.04 below the 0.1 threshold.",
  "checks.coverage_gap": "Check coverage gap. No train_test_validation suite was run; one check errored.",
  "checks.report_data_mismatch": "Report does not match the dataset. The check report covers 48,000 rows while the dataset has 49,474.",
  "checks.check_failed": "A check could not run. Label Property Outliers raised a CheckFailure.",
  "checkpoint.unsafe_pickle": "Unsafe pickle in checkpoint. The pickle imports os.system, which runs code when loaded.",
  "checkpoint.requires_unsafe_load": "Needs weights_only=False to load. The pickle imports Lightning AttributeDict, outside torch's weights_only allowlist.",
  "checkpoint.unverified_content": "Content the safety scan could not open. An encrypted zip entry holds data.pkl; its imports could not be checked.",
  "checkpoint.corrupt_file": "Malformed checkpoint file. The safetensors header offsets overlap and the data section is shorter than the header claims.",
  "checkpoint.unrecognized_format": "Unrecognized checkpoint format. The file is neither a safetensors file nor a PyTorch zip archive.",
  "checkpoint.nonfinite_weights": "Non-finite weights. layer4.1.conv2.weight contains 1,024 NaN values.",
  "checkpoint.all_zero_tensor": "All-zero weight tensor. fc.weight is entirely zeros.",
  "checkpoint.constant_tensor": "Constant weight tensor. encoder.layer.0.weight has standard deviation 0: every entry is equal.",
  "checkpoint.exploding_weights": "Very large weights. classifier.weight RMS is 40 times the He initialization scale.",
  "checkpoint.dead_units": "Dead units. 63% of the output channels of layer3.0.conv1 have near-zero weight norm.",
  "checkpoint.batchnorm_stats": "Batch-norm statistics never updated. num_batches_tracked is 0 and running_var is all ones in bn1.",
  "checkpoint.dtype_mix": "Mixed tensor precisions. The checkpoint holds fp16 weights with values near 65,504 alongside fp32 tensors.",
  "checkpoint.size_vs_params": "Checkpoint file size inconsistent. The file is 40% of the size its tensors require: likely truncated.",
  "checkpoint.missing_metadata": "Missing checkpoint metadata. No hyper_parameters, config or epoch stored with the weights.",
  "checkpoint.shape_mismatch": "Shape mismatch. fc.weight has shape [1000, 2048] but the configuration expects [12, 2048].",
  "checkpoint.param_count_mismatch": "Parameter count mismatch. The tensors hold 21.3 M parameters while the metadata states 23.5 M.",
  "checkpoint.no_optimizer_state": "No optimizer state. The checkpoint cannot resume training: optimizer_states is absent.",
  "checkpoint.header_only": "Checkpoint read header-only. The file exceeds the size limit, so only tensor shapes and dtypes were checked.",
  "cross.score_with_leakage": "Reported score invalid: leakage. Validation accuracy 0.995 with a failed train-test samples mix check.",
  "cross.gap_explained_by_shift": "Gap explained by distribution shift. The train/validation gap coincides with 60% of features drifting.",
  "cross.imbalance_accuracy_only": "Accuracy is the only metric on imbalanced data. 25:1 class imbalance and only accuracy logged.",
  "cross.majority_class_collapse": "Collapse to the majority class. Validation accuracy 0.69 equals the majority share and does not move.",
  "cross.inversion_with_overlap": "Validation beats training with train/test overlap. Val loss below train loss and 42% of test rows in train.",
  "cross.nan_from_data": "NaN loss caused by data. The loss became NaN and the dataset has Inf and NaN feature values.",
  "cross.unnormalized_and_stuck": "Stuck training with unnormalized inputs. Loss did not improve and features are not normalized.",
  "cross.noisy_labels_ceiling": "Noisy labels cap accuracy. Train accuracy plateaus at 0.91 with 6% estimated label errors.",
  "cross.capacity_vs_data": "Model too large for the data. 23.5 M parameters for 3,000 training examples, and the model overfits.",
  "cross.saved_wrong_checkpoint": "Saved checkpoint is not the best one. last.ckpt is epoch 59 while the best validation epoch was 23.",
  "cross.checkpoint_corrupt_after_finite_training": "Checkpoint corrupt although training was finite. NaN weights in the saved file but every logged loss is finite.",
  "cross.label_shift_new_classes": "Label shift with new classes. Label drift failed and the test split has classes absent from training.",
  "cross.drift_invisible_to_validation": "Validation does not see the test drift. Validation curves are healthy but the test set drifted.",
  "cross.lr_spike_alignment": "Loss spikes aligned with the learning-rate peak. Spikes start at the end of warmup when the learning rate peaks.",
  "cross.head_class_mismatch": "Classifier head does not match the classes. The head outputs 1000 classes while the dataset has 12 labels.",
  "cross.report_data_mismatch": "Checks ran on a different snapshot than the dataset statistics. The report saw 8,000 train rows, the statistics 10,000.",
};

/** The analyzers' own catalogs (nodes/<kind>/catalog.ts): loaded by path, so one not written yet is skipped (a broken one fails). */
export async function catalogDetectorIds(): Promise<string[]> {
  const catalogs: Array<[kind: string, exportName: string]> = [
    ["training", "trainingDetectors"],
    ["dataset", "datasetDetectors"],
    ["checks", "checksDetectors"],
    ["checkpoint", "checkpointDetectors"],
    ["integrate", "crossDetectors"],
    ["cross", "crossDetectors"],
  ];
  const ids: string[] = [];
  for (const [kind, exportName] of catalogs) {
    const file = new URL(`../../../nodes/${kind}/catalog.ts`, import.meta.url);
    if (!existsSync(file)) continue;
    const mod = (await import(file.href)) as Record<string, unknown>;
    const list = mod[exportName] as DetectorInfo[] | undefined;
    if (Array.isArray(list)) ids.push(...list.map((d) => d.id));
  }
  return [...new Set(ids)];
}
