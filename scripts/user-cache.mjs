// The per-user cache the development scripts share across clones (code-server, Node 24, venvs, the corpus):
// ~/.cache/toolsmith (under XDG_CACHE_HOME when set); TOOLSMITH_CACHE moves it.
import * as os from 'node:os';
import * as path from 'node:path';

export const userCache = process.env.TOOLSMITH_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'toolsmith');
