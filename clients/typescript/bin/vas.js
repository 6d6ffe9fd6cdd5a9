#!/usr/bin/env node
// The CLI ships compiled: `npm ci` (or `npm run build -w @video-analysis/client`) builds dist/.
import "../dist/cli/main.js";
