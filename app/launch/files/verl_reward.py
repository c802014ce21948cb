"""A verl 0.9.1 reward function: reward.custom_reward_function.path points at this file, .name at compute_score.

verl calls it once per response with the row's data_source, the decoded response, the row's
reward_model.ground_truth and its extra_info (see verl/utils/reward_score/__init__.py).  Return a float, or a dict
with a "score" key and any extra values to log.  Replace the check below with your verifier.
"""


def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    answer = solution_str.strip().split()[-1] if solution_str.strip() else ""
    return 1.0 if answer == str(ground_truth).strip() else 0.0
