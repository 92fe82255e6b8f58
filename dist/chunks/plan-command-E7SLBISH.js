import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-QGTHTEUI.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-TBPRJM5X.js";
import "./chunk-YFA2KRP7.js";
import "./chunk-BE46HTGE.js";
import "./chunk-K6FIV3ZZ.js";
import "./chunk-EDZDFG2U.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
