// guard for Pi: every bash call is decided by guard before it runs.
//
// Installed by `guard install --agent pi` (into .pi/extensions/ or
// ~/.pi/agent/extensions/) together with shellPath = guard's bash link, and
// removed by `guard uninstall --agent pi`. Source: integrations/pi/guard.ts
// in guard's repository.
//
// For each bash tool call it runs `guard hook pi`, writes one JSON object
// {"command","cwd","session_id"} on its stdin and reads one JSON line
// {"decision","reason",...} from its stdout:
//   allow -> the call runs;
//   ask   -> the call runs only if Pi's shell is guard (shellPath), because
//            guard, as the shell, asks the human at guard's console (guard
//            watch) or leaves the command pending (guard approve ID);
//            otherwise it is blocked with the approval hint;
//   deny, or anything else (guard missing, a crash, a timeout, output that
//            does not parse) -> the call is blocked with guard's reason.
// It never lets a command through that guard did not allow.

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { spawn } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const GUARD = "__GUARD_BIN__";
const TIMEOUT_MS = 30000;
const MAX_LINE = 1 << 20;

type Answer = { decision: string; reason?: string };

function decide(request: { command: string; cwd: string; session_id: string }): Promise<Answer> {
	return new Promise((resolve) => {
		let done = false;
		let out = "";
		let child: ReturnType<typeof spawn> | undefined;
		let timer: ReturnType<typeof setTimeout> | undefined;
		const finish = (answer: Answer) => {
			if (done) return;
			done = true;
			if (timer) clearTimeout(timer);
			try {
				child?.kill("SIGKILL");
			} catch {}
			resolve(answer);
		};
		const fail = (why: string) => finish({ decision: "deny", reason: "guard hook failed: " + why });
		try {
			child = spawn(GUARD, ["hook", "pi"], { stdio: ["pipe", "pipe", "ignore"] });
		} catch (e) {
			fail(String((e as Error)?.message ?? e));
			return;
		}
		timer = setTimeout(() => fail("no answer in " + TIMEOUT_MS / 1000 + "s"), TIMEOUT_MS);
		child.on("error", (e) => fail(e.message));
		child.stdout!.setEncoding("utf8");
		child.stdout!.on("data", (chunk: string) => {
			out += chunk;
			const nl = out.indexOf("\n");
			if (nl < 0) {
				if (out.length > MAX_LINE) fail("answer too long");
				return;
			}
			let answer: Answer;
			try {
				answer = JSON.parse(out.slice(0, nl));
			} catch {
				fail("answer is not JSON");
				return;
			}
			if (!answer || typeof answer.decision !== "string") {
				fail("answer has no decision");
				return;
			}
			finish(answer);
		});
		child.on("close", (code) => fail("exited with status " + code + " without an answer"));
		child.stdin!.on("error", () => {});
		child.stdin!.end(JSON.stringify(request) + "\n");
	});
}

function shellPath(file: string): string | undefined {
	try {
		const v = JSON.parse(readFileSync(file, "utf8"))?.shellPath;
		return typeof v === "string" && v ? v : undefined;
	} catch {
		return undefined;
	}
}

// agentDir is Pi's global config directory (PI_CODING_AGENT_DIR moves it).
function agentDir(): string {
	const dir = process.env.PI_CODING_AGENT_DIR;
	if (!dir) return join(homedir(), ".pi", "agent");
	if (dir === "~") return homedir();
	return dir.startsWith("~/") ? homedir() + dir.slice(1) : dir;
}

// shellIsGuard reports whether Pi runs bash commands through guard: the
// project's shellPath wins over the global one, as in Pi's settings.
function shellIsGuard(cwd: string): boolean {
	const configured = shellPath(join(cwd, ".pi", "settings.json")) ?? shellPath(join(agentDir(), "settings.json"));
	if (!configured) return false;
	try {
		return realpathSync(configured) === realpathSync(GUARD);
	} catch {
		return false;
	}
}

function refusal(kind: string, reason?: string): string {
	const text = String(reason || "no reason given");
	return text.startsWith("guard: ") ? text : "guard: " + kind + ": " + text;
}

export default function (pi: ExtensionAPI) {
	pi.on("tool_call", async (event, ctx) => {
		if (event.toolName !== "bash") return;
		const command = (event.input as { command?: unknown })?.command;
		if (typeof command !== "string") return { block: true, reason: "guard: denied: a bash call without a command" };
		const cwd = ctx.cwd;
		let session = "";
		try {
			session = String((ctx.sessionManager as any)?.getSessionId?.() ?? "");
		} catch {}
		const answer = await decide({ command, cwd, session_id: session });
		if (answer.decision === "allow") return;
		if (answer.decision === "ask") {
			if (shellIsGuard(cwd)) return; // guard, as the shell, asks the human
			return {
				block: true,
				reason:
					refusal("needs approval", answer.reason) +
					" (pi's shellPath is not guard, so guard cannot ask; run: guard install --agent pi)",
			};
		}
		return { block: true, reason: refusal("denied", answer.reason) };
	});
}
