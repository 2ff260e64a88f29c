/// `GET /health` and `GET /ready`: `{"status": "ok"}` / `{"status": "ready"}`.
public struct StatusResponse: ContractResponse, Equatable {
    public let status: String
}
