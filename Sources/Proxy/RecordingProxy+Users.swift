import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension RecordingProxy {
    /// Whether a request with this key goes on, and as whom.
    enum Admission: Equatable {
        /// It goes on; `user` is the tokens file's name for its token (nil with no tokens file).
        case admitted(user: String?)
        /// It is answered with `refusal` and recorded, with the user when one was matched.
        case refused(ProxyGate.Refusal, user: String?)
    }

    /// Who sent `clientKey`, and whether that one may send now: with `--token` the key must be the token;
    /// with `--tokens-file` it must be some user's token (every user's compared, in constant time), and a
    /// user with a daily budget must not have spent it yet. Decided before the body is read, so a refused
    /// request reaches nothing upstream.
    func admission(presenting clientKey: String?) async -> Admission {
        if let token = configuration.token {
            guard let clientKey, ProxyToken.matches(clientKey, token) else {
                return .refused(Self.unknownToken, user: nil)
            }
            return .admitted(user: nil)
        }
        guard let users = configuration.users else { return .admitted(user: nil) }
        guard let clientKey, let user = users.user(presenting: clientKey) else {
            return .refused(Self.unknownToken, user: nil)
        }
        if let refusal = await overBudget(user) { return .refused(refusal, user: user.name) }
        return .admitted(user: user.name)
    }

    static let unknownToken = ProxyGate.Refusal(
        status: 401, code: "invalid_proxy_token",
        reason: "this proxy wants its token as the key (Authorization: Bearer TOKEN)")

    /// Why `user` may not send now: it has spent its daily budget since 00:00 UTC (429), or what it spent
    /// cannot be read (503: a budget that cannot be checked is not a budget, so the proxy fails closed).
    /// Nil when it has no budget or has some left.
    func overBudget(_ user: ProxyUsers.User) async -> ProxyGate.Refusal? {
        guard let budget = user.budget ?? configuration.defaultBudget else { return nil }
        let spent: Double
        do {
            guard let spending else { throw ProxyError("no store to read spending from") }
            spent = try await spending.spent(user: user.name, since: SpendCache.startOfUTCDay(now()))
        } catch {
            return ProxyGate.Refusal(
                status: 503, code: "budget_unavailable",
                reason:
                    "user \(user.name) has a daily budget of \(Self.dollars(budget)), and what it has spent today cannot be read from the store (\(error)), so nothing is forwarded for it"
            )
        }
        guard spent >= budget else { return nil }
        let midnight = SpendCache.startOfUTCDay(now()).addingTimeInterval(86_400)
        return ProxyGate.Refusal(
            status: 429, code: "budget_exceeded",
            reason:
                "user \(user.name) has spent \(Self.dollars(spent)) of its daily budget of \(Self.dollars(budget)) since 00:00 UTC; the budget renews at midnight UTC",
            type: "budget_exceeded", retryAfter: max(1, Int(midnight.timeIntervalSince(now()).rounded(.up))))
    }

    /// `$1.25`, or `$0.0004` for amounts under a cent.
    static func dollars(_ amount: Double) -> String {
        String(format: amount != 0 && abs(amount) < 0.01 ? "$%.4f" : "$%.2f", amount)
    }

    /// Where the proxy answers a load balancer itself (`--health`).
    static let healthPath = "/health"

    /// `GET /health`: 200 `{"status":"ok"}`, answered by the proxy itself whenever it is serving: no token is
    /// asked for, nothing is forwarded, nothing is recorded (a load balancer asks every few seconds).
    static func health(_ request: Request) -> Response {
        guard request.method == .get || request.method == .head else {
            return ProxyFailure.response(405, "\(healthPath) answers GET only", code: "method_not_allowed")
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
    }
}
