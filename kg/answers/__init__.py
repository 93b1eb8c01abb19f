"""The typed answers, in one place: what every question, analytics run and export returns.

``kg.answers.questions`` holds the answers to the questions about papers (pydantic models
that forbid unknown fields, so a query returning a column the model does not know fails
loudly); ``kg.answers.runs`` holds the reports of the whole-map runs, analytics and exports
(frozen dataclasses with ``as_dict()``); ``kg.answers.loads`` the reports of loads and the
merge records of the identity rule. A result that is a list keeps it in ``results``,
which is also where the CLI's ``--json`` puts it.
"""

# Both modules' names, and only those, are kg.answers.*: each module lists them once.
from kg.answers import loads, questions, runs
from kg.answers.loads import *  # noqa: F403
from kg.answers.questions import *  # noqa: F403
from kg.answers.runs import *  # noqa: F403

__all__ = questions.__all__ + runs.__all__ + loads.__all__
