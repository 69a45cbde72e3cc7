import CTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A started child fed, drained and waited for: the one place a child is reaped (`waitpid`), every system call
/// that a signal can interrupt retried on EINTR.
extension ChildProcess {
    func finish(_ started: Started) throws(ChildProcessError) -> Outcome {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var pending: ArraySlice<UInt8> = []
        if case .bytes(let bytes) = input { pending = bytes[...] }
        var inputEnd = started.input
        if inputEnd >= 0, pending.isEmpty {
            close(inputEnd)
            inputEnd = -1
        }
        var open = [started.output, started.errors].filter { $0 >= 0 }
        var collected = [Int32: [UInt8]](uniqueKeysWithValues: open.map { ($0, []) })
        var buffer = [UInt8](repeating: 0, count: 65536)
        var stopped: End?
        var unwatchable: Int32?
        var overflowed = false
        while !open.isEmpty || inputEnd >= 0 {
            if cancellation?.isCancelled == true {
                stopped = .cancelled
                break
            }
            // How long one poll may wait: a tenth of a second when a cancellation is watched, never past the
            // deadline, and else until something happens.
            var wait: Int64 = cancellation == nil ? -1 : 100
            if let deadline {
                let left = deadline - ContinuousClock.now
                guard left > .zero else {
                    stopped = .timedOut
                    break
                }
                let milliseconds = min(Self.milliseconds(left), Int64(Int32.max))
                wait = wait < 0 ? milliseconds : min(wait, milliseconds)
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if inputEnd >= 0 { fds.append(pollfd(fd: inputEnd, events: Int16(POLLOUT), revents: 0)) }
            if poll(&fds, nfds_t(fds.count), Int32(wait)) < 0 {
                if errno == EINTR { continue }
                // The pipes cannot be watched: the child is stopped as at its deadline, never waited for blind.
                unwatchable = errno
                break
            }
            for entry in fds where entry.revents != 0 {
                if entry.fd == inputEnd {
                    let written = pending.withUnsafeBytes { write(inputEnd, $0.baseAddress, $0.count) }
                    if written > 0 { pending = pending.dropFirst(written) }
                    if pending.isEmpty || (written < 0 && errno != EINTR && errno != EAGAIN) {
                        close(inputEnd)
                        inputEnd = -1
                    }
                    continue
                }
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    collected[entry.fd]!.append(contentsOf: buffer[..<count])
                    if let outputLimit, collected[entry.fd]!.count > outputLimit { overflowed = true }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
            if overflowed { break }
        }
        if stopped != nil || unwatchable != nil || overflowed { stop(started.pid) }
        open.forEach { close($0) }
        if inputEnd >= 0 { close(inputEnd) }
        let status = wait(for: started.pid, deadline: deadline, stopped: &stopped)
        if let unwatchable { throw ChildProcessError(.read, executable: executable, code: unwatchable) }
        let end = stopped ?? ((status & 0x7F) == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F))
        return Outcome(
            end: end, output: collected[started.output] ?? [], errors: collected[started.errors] ?? [],
            overflowed: overflowed)
    }

    /// Kills the child, and its whole group when it has one of its own (the leader, not yet reaped, keeps the
    /// group's id): its helpers go with it.
    private func stop(_ pid: pid_t) {
        kill(ownGroup ? -pid : pid, SIGKILL)
    }

    /// Reaps `pid` and returns its wait status. Its output closed, a child may still run (`exec >/dev/null`):
    /// while nothing has stopped it yet, it is waited for with the same deadline and cancellation as its
    /// output, looked at after 1 ms, then at most every 20 ms, and stopped (`stopped` set) when either passes.
    private func wait(for pid: pid_t, deadline: ContinuousClock.Instant?, stopped: inout End?) -> Int32 {
        var status: Int32 = 0
        var watching = stopped == nil && (deadline != nil || cancellation != nil)
        var pause: UInt32 = 1_000
        while true {
            let reaped = waitpid(pid, &status, watching ? WNOHANG : 0)
            if reaped == pid { return status }
            if reaped < 0 {
                if errno == EINTR { continue }
                return status
            }
            // Not ended yet (WNOHANG).
            if let deadline, ContinuousClock.now >= deadline {
                stopped = .timedOut
            } else if cancellation?.isCancelled == true {
                stopped = .cancelled
            }
            if stopped != nil {
                stop(pid)
                watching = false
                continue
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Blocks until `pid` has ended, without reaping it: a running child's exit is seen even while something
    /// it started still holds its pipes open.
    static func waitForExit(_ pid: pid_t) {
        _ = or_has_ended(pid, 1)
    }

    /// Reaps a child whose pipes someone else reads (`RunningChild`): waits up to `grace` for it to end, kills
    /// it if it has not; then, with `group`, kills what is left of its group (its helpers, which would hold
    /// its pipes), before the leader is reaped and its pid, the group's id, can be another's.
    static func reap(_ pid: pid_t, group: Bool, after grace: Duration) -> End {
        let deadline = ContinuousClock.now + grace
        var pause: UInt32 = 1_000
        while or_has_ended(pid, 0) == 0 {
            if ContinuousClock.now >= deadline {
                kill(group ? -pid : pid, SIGKILL)
                break
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        if group { kill(-pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return .exited(-1) }
        }
        return (status & 0x7F) == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
    }

    /// `duration` in whole milliseconds, rounded up.
    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }
}
