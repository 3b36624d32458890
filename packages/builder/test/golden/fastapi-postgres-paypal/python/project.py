"""Per-project data: actions, policies, problem types and the store's statements. The builder
renders it as project.json beside this module, so no Python source differs between projects."""
import json
import os
from typing import Any, Dict

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "project.json"), encoding="utf-8") as _file:
    PROJECT: Dict[str, Any] = json.load(_file)

ACTIONS: Dict[str, Dict[str, Any]] = PROJECT["actions"]
PROBLEMS: Dict[str, Dict[str, Any]] = PROJECT["problems"]
STATEMENTS: Dict[str, Dict[str, Any]] = PROJECT["statements"]
SCRIPTS: Dict[str, str] = PROJECT["scripts"]
