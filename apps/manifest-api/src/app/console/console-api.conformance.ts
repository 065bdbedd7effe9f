// Compile-time only: the web console's own API types (console/src/api-types.ts, browser code) must accept what
// the views answer, and what the console sends must be what the DTOs take. Nothing here runs.
import type * as Console from '../../../console/src/api-types';
import type { SessionView } from '../access/dto/access.views';
import type { GoalContractView } from '../contracts/contract.views';
import type { CreateGoalDto } from '../goals/dto/create-goal.dto';
import type { UpdateGoalDto } from '../goals/dto/update-goal.dto';
import type { GoalView } from '../goals/goal.views';
import type { Page } from '../http/pagination';
import type { Problem } from '../http/problem';
import type { CreateRecoveryDto } from '../recoveries/dto/create-recovery.dto';
import type { FailedDeliveryPageView, FailedDeliveryView, RecoveryView } from '../recoveries/recovery.views';
import type { AttemptView, ResultSummaryView, ResultView, RevisionView } from '../results/result.views';
import type { SendTestReportView } from '../send-test/send-test.views';

/** Compiles only while `Actual` can be used where `Expected` is wanted. */
type Conforms<Expected, Actual extends Expected> = Actual;

export type ConsoleApiConformance = [
  Conforms<Console.Session, SessionView>,
  Conforms<Console.Goal, GoalView>,
  Conforms<Console.Page<GoalView>, Page<GoalView>>,
  Conforms<Console.Page<ResultSummaryView>, Page<ResultSummaryView>>,
  Conforms<Console.GoalContract, GoalContractView>,
  Conforms<Console.ResultSummary, ResultSummaryView>,
  Conforms<Console.Result, ResultView>,
  Conforms<Console.Attempt, AttemptView>,
  Conforms<Console.Revision, RevisionView>,
  Conforms<Console.SendTestReport, SendTestReportView>,
  Conforms<Console.Problem, Problem>,
  Conforms<Console.FailedDelivery, FailedDeliveryView>,
  Conforms<Console.Page<Console.FailedDelivery>, FailedDeliveryPageView>,
  Conforms<Console.Recovery, RecoveryView>,
  Conforms<CreateRecoveryDto, Console.FailedFilter & { since: string }>,
  Conforms<CreateGoalDto, Console.NewGoal>,
  Conforms<UpdateGoalDto, Console.GoalPatch>,
];
