import json
import urllib.request

from market_stub import MarketStub

with MarketStub.start(seed=7, count=20, clock="2026-01-01") as stub:
    with urllib.request.urlopen(f"{stub.url}/markets") as response:
        markets = json.load(response)
    print(len(markets), "markets at", stub.url)

    stub.set_deviations([{"name": "string-price", "rate": 0.5}])
    stub.add_rule({"match": {"route": "list"}, "behaviour": {"status": 503, "retryAfter": 2}, "times": 1})
    stub.tick(3)
    print(stub.request_count(path="/markets"), "list request(s) in the journal")
