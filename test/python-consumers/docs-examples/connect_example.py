import os

from market_stub import connect

stub = connect(os.environ["MARKET_STUB_URL"], admin_token=os.environ.get("MARKET_STUB_ADMIN_TOKEN"))
stub.reset()
stub.set_deviations([{"name": "list-500"}])
print(stub.requests(limit=5))
stub.reset()
