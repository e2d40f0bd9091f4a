/**
 * @module cli/flock
 * An exclusive lock on an open file, held until the file is closed or the
 * process ends however it ends (kill -9 included): `flock(2)` from the C
 * library through bun:ffi (Bun's standard library and Node's fs have no file
 * locks). The kernel drops the lock when the last descriptor of the open file
 * closes, which an exiting process does before it is even a zombie, so no
 * dead process can hold it, and no other process that merely got the same
 * pid can either. Works in the single compiled executable (bun:ffi is part
 * of the runtime; the C library is the system's).
 *
 * Linux and macOS: glibc's `libc.so.6`, musl's `libc.musl-<arch>.so.1`, or
 * macOS's libSystem; errno through `__errno_location` (glibc, musl) or
 * `__error` (macOS). Where none loads, `fileLocks()` is null and the caller
 * says so.
 *
 * @example
 * const locks = fileLocks();
 * const fd = openSync('state/database.lock', 'a+');
 * locks?.tryLock(fd); // => 'locked' | 'busy' | { error: 'ENOLCK' }
 */
import { dlopen, FFIType, read, type Pointer } from 'bun:ffi';

/** <sys/file.h> (the same values on Linux and the BSDs). */
const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;
/** EWOULDBLOCK is EAGAIN: 11 on Linux, 35 on macOS. */
const WOULD_BLOCK = new Set([11, 35]);
const ERRNO_NAMES: Record<number, string> = { 4: 'EINTR', 9: 'EBADF', 22: 'EINVAL', 37: 'ENOLCK', 77: 'ENOLCK' };

export interface FileLocks {
  /** Takes the exclusive lock on `fd` without waiting: `locked`, `busy` (another open file holds it), or the error. */
  tryLock(fd: number): 'locked' | 'busy' | { error: string };
  /** Gives the lock up (closing the file does too). */
  unlock(fd: number): void;
}

const LIBRARIES = ['libc.so.6', `libc.musl-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}.so.1`, 'libSystem.B.dylib'];

function load(): FileLocks | null {
  for (const name of LIBRARIES) {
    for (const errnoSymbol of ['__errno_location', '__error']) {
      let library;
      try {
        library = dlopen(name, {
          flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
          [errnoSymbol]: { args: [], returns: FFIType.ptr },
        });
      } catch {
        continue; // not this library, or not this errno symbol in it
      }
      const { flock } = library.symbols;
      const errnoAt = library.symbols[errnoSymbol] as () => Pointer | null;
      const errno = () => {
        const at = errnoAt();
        return at === null ? 0 : read.i32(at, 0);
      };
      return {
        tryLock(fd) {
          if (flock(fd, LOCK_EX | LOCK_NB) === 0) return 'locked';
          const code = errno();
          return WOULD_BLOCK.has(code) ? 'busy' : { error: ERRNO_NAMES[code] ?? `errno ${code}` };
        },
        unlock(fd) {
          flock(fd, LOCK_UN);
        },
      };
    }
  }
  return null;
}

let loaded: FileLocks | null | undefined;

/** The C library's flock, loaded once per process; null where it cannot be loaded. */
export function fileLocks(): FileLocks | null {
  if (loaded === undefined) loaded = load();
  return loaded;
}
