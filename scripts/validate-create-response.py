#!/usr/bin/env python3
"""Validates request bodies (JSON files) against the CreateResponse schema of OpenAI's OpenAPI spec.
Usage: validate-create-response.py OPENAPI_JSON BODY.json...   Prints one line per invalid body; exit 1 if any."""
import json
import sys

import jsonschema

spec = json.load(open(sys.argv[1]))
validator = jsonschema.Draft202012Validator({"$ref": "#/components/schemas/CreateResponse", "components": spec["components"]})
failed = False
for path in sys.argv[2:]:
    body = json.load(open(path))
    errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
    for error in errors[:3]:
        failed = True
        where = "/".join(str(p) for p in error.absolute_path) or "(body)"
        print(f"{path}: {where}: {error.message[:300]}")
sys.exit(1 if failed else 0)
