import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * Go toolchain for the independent verifiers (Debian's golang-go and golang-golang-x-mod-dev, GOPATH
 * mode, offline). Without it the suites skip on a workstation but fail under CI=true, where .ci/run
 * installs it: a verifier that silently never runs proves nothing.
 */
const GOPATH = '/usr/share/gocode';
export const INDEPENDENT = fileURLToPath(new URL('./independent/', import.meta.url));

const goReady = (): boolean => spawnSync('go', ['version']).status === 0 && existsSync(join(GOPATH, 'src/golang.org/x/mod/sumdb/tlog'));

/** For `describe.skipIf`: skip only when Go is missing outside CI. */
export const skipWithoutGo = process.env.CI !== 'true' && !goReady();

/** Builds test/tlog/independent/<program> into a temp dir; returns the binary's path. */
export function buildGo(program: string): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), `tlog-${program}-`)), program);
  return new Promise((resolve, reject) => {
    execFile(
      'go',
      ['build', '-o', out, '.'],
      { cwd: join(INDEPENDENT, program), env: { ...process.env, GO111MODULE: 'off', GOPATH, GOFLAGS: '' }, timeout: 180_000 },
      (error, _stdout, stderr) => (error ? reject(new Error(`go build ${program}: ${error.message}\n${stderr}`)) : resolve(out)),
    );
  });
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(binary: string, args: string[], timeout = 120_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(binary, args, { timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Serves a directory read-only over HTTP, as a static tlog-tiles host would. */
export async function serveDirectory(root: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = normalize(join(root, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)));
    if (!path.startsWith(root) || !existsSync(path) || !statSync(path).isFile()) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(path));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export interface Witness {
  url: string;
  vkey: string;
  process: ChildProcess;
}

/** Starts the witness binary; resolves once it printed its address and key. */
export function startWitness(binary: string, args: string[]): Promise<Witness> {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  return new Promise((resolve, reject) => {
    const seen: string[] = [];
    child.once('exit', (code) => reject(new Error(`witness exited with ${code}`)));
    lines.on('line', (line) => {
      seen.push(line);
      if (seen.length === 2) resolve({ url: seen[0]!.replace('listening on ', ''), vkey: seen[1]!, process: child });
    });
  });
}
