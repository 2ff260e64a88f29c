#!/usr/bin/env python3
"""Validates an OpenAPI document with openapi-spec-validator. Usage: validate_openapi.py FILE"""
import sys

import yaml
from openapi_spec_validator import validate

with open(sys.argv[1]) as f:
    document = yaml.safe_load(f)
assert document["openapi"].startswith("3.1"), document["openapi"]
validate(document)
print("valid:", len(document["paths"]), "paths")
