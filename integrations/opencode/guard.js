// guard for OpenCode: every bash call is decided by guard before it runs.
//
// Installed by `guard install --agent opencode` (into .opencode/plugins/ or
// ~/.config/opencode/plugins/) and removed by `guard uninstall --agent
// opencode`. Source: integrations/opencode/guard.js in guard's repository.
//
// For each bash call it runs `guard hook opencode`, writes one JSON object
// {"command","cwd","session_id"} on its stdin and reads one JSON line
// {"decision","reason",...} from its stdout:
//   allow -> the call runs (with guard's rewrite of the command, if it sent one);
//   ask   -> the command is handed to guard's own shell (guard -c), which asks
//            the human at guard's console (guard watch) or leaves it pending
//            (guard approve ID) and fails with "guard: needs approval: ...";
//   deny, or anything else (guard missing, a crash, a timeout, output that
//            does not parse) -> the call is blocked with guard's reason.
// It never lets a command through that guard did not allow.

import { spawn } from "node:child_process"

const GUARD = "__GUARD_BIN__"
const TIMEOUT_MS = 30000
const MAX_LINE = 1 << 20

// shq quotes s as one POSIX shell word.
function shq(s) {
  return "'" + s.replace(/'/g, "'\\''") + "'"
}

function decide(request) {
  return new Promise((resolve) => {
    let done = false
    let out = ""
    let child
    let timer
    const finish = (answer) => {
      if (done) return
      done = true
      if (timer) clearTimeout(timer)
      try {
        if (child) child.kill("SIGKILL")
      } catch {}
      resolve(answer)
    }
    const fail = (why) => finish({ decision: "deny", reason: "guard hook failed: " + why })
    try {
      child = spawn(GUARD, ["hook", "opencode"], { stdio: ["pipe", "pipe", "ignore"] })
    } catch (e) {
      fail(String(e && e.message ? e.message : e))
      return
    }
    timer = setTimeout(() => fail("no answer in " + TIMEOUT_MS / 1000 + "s"), TIMEOUT_MS)
    child.on("error", (e) => fail(e.message))
    child.stdout.setEncoding("utf8")
    child.stdout.on("data", (chunk) => {
      out += chunk
      const nl = out.indexOf("\n")
      if (nl < 0) {
        if (out.length > MAX_LINE) fail("answer too long")
        return
      }
      let answer
      try {
        answer = JSON.parse(out.slice(0, nl))
      } catch {
        fail("answer is not JSON")
        return
      }
      if (!answer || typeof answer.decision !== "string") {
        fail("answer has no decision")
        return
      }
      finish(answer)
    })
    child.on("close", (code) => fail("exited with status " + code + " without an answer"))
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(request) + "\n")
  })
}

function refusal(kind, reason) {
  const text = String(reason || "no reason given")
  return text.startsWith("guard: ") ? text : "guard: " + kind + ": " + text
}

export const GuardPlugin = async ({ directory }) => {
  return {
    "tool.execute.before": async (input, output) => {
      if (input.tool !== "bash") return
      const args = output.args || {}
      const command = args.command
      if (typeof command !== "string") {
        throw new Error("guard: denied: a bash call without a command")
      }
      const cwd = typeof args.workdir === "string" && args.workdir ? args.workdir : directory
      const answer = await decide({ command, cwd, session_id: input.sessionID || "" })
      switch (answer.decision) {
        case "allow":
          if (typeof answer.command === "string") args.command = answer.command
          return
        case "ask":
          // guard's shell asks the human, or fails with the approval hint
          args.command =
            typeof answer.command === "string"
              ? answer.command
              : "GUARD_AGENT=opencode " + shq(GUARD) + " -c " + shq(command)
          return
        case "deny":
          throw new Error(refusal("denied", answer.reason))
        default:
          throw new Error(refusal("denied", "unknown decision from guard"))
      }
    },
  }
}
