//! Work that overlaps the end of a frame: once the world is drawn, the frame is egui's paint
//! (one thread) and the present (`next_frame().await`: the GL driver, on this project's machines
//! Mesa's llvmpipe, rasterises and shows the frame), and neither reads the editor state. A worker
//! thread runs the simulation's fixed steps for the next frame meanwhile, on the core egui's
//! paint leaves idle and in the gaps of the present.
//!
//! The frame loop hands the whole editor state over (`start`) after it has drawn the world and
//! takes it back (`finish`) after the present, before the next frame's panels read it: nothing
//! else touches the state in between, so there is one owner at any time and no locking. What a frame shows is the
//! state before that frame's steps (one frame later than when the steps ran before drawing);
//! the steps are the same calls on the same state in the same order, so the run is the same
//! sequence of states, bit for bit (the core reads no clock; how many steps a frame runs was
//! always the shell's wall-clock decision).
//!
//! A panic on the worker is carried back to the main thread and resumed there, as if the step
//! had run on it. `STEERLAB_OVERLAP=0` runs the same work on the main thread at the same point
//! of the frame, before egui's paint (for before/after measurements in the same minutes).

use std::sync::mpsc;

/// Stack of the worker: the main thread's 8 MB, so the expression limits measured on the main
/// thread (curves are evaluated during a step) hold on the worker too.
const WORKER_STACK_BYTES: usize = 8 << 20;

/// A job: what to do with the state while the frame is presented.
pub type Job<T> = Box<dyn FnOnce(&mut T) + Send>;

/// Whether frames overlap their simulation with the present (`STEERLAB_OVERLAP=0` turns it off).
pub fn enabled() -> bool {
    std::env::var_os("STEERLAB_OVERLAP").is_none_or(|v| v != "0")
}

/// A worker thread that owns a `T` while a job runs on it.
pub struct Overlap<T> {
    jobs: Option<mpsc::Sender<(T, Job<T>)>>,
    results: mpsc::Receiver<std::thread::Result<T>>,
    /// A state handed over and not taken back yet.
    busy: bool,
    /// Kept so that an overlap that could not start its thread runs its jobs in place.
    inline: Option<T>,
}

impl<T: Send + 'static> Overlap<T> {
    /// Starts the worker thread (named `name`) when `threaded`. Without a thread (not
    /// `threaded`, or none could be started) jobs run in place, in [`Overlap::start`].
    pub fn new(name: &str, threaded: bool) -> Self {
        let (job_sender, jobs) = mpsc::channel::<(T, Job<T>)>();
        let (result_sender, results) = mpsc::channel();
        if !threaded {
            return Self { jobs: None, results, busy: false, inline: None };
        }
        let spawned = std::thread::Builder::new()
            .name(name.to_string())
            .stack_size(WORKER_STACK_BYTES)
            .spawn(move || {
                for (mut value, job) in jobs {
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
                        job(&mut value);
                        value
                    }));
                    if result_sender.send(result).is_err() {
                        break;
                    }
                }
            });
        Self { jobs: spawned.is_ok().then_some(job_sender), results, busy: false, inline: None }
    }

    /// Hands `value` to the worker, which runs `job` on it; [`Overlap::finish`] gives it back.
    /// Without a worker the job runs here, now.
    pub fn start(&mut self, value: T, job: Job<T>) {
        debug_assert!(!self.busy, "start called twice without finish");
        let value = match &self.jobs {
            Some(jobs) => match jobs.send((value, job)) {
                Ok(()) => {
                    self.busy = true;
                    return;
                }
                // The worker is gone (it cannot be: it only stops when this is dropped); run
                // the job here.
                Err(mpsc::SendError((mut value, job))) => {
                    job(&mut value);
                    value
                }
            },
            None => {
                let mut value = value;
                job(&mut value);
                value
            }
        };
        self.inline = Some(value);
    }

    /// Waits for the job started last and gives its state back. A panic in the job is resumed
    /// here, on the caller's thread.
    pub fn finish(&mut self) -> T {
        if let Some(value) = self.inline.take() {
            return value;
        }
        self.busy = false;
        match self.results.recv() {
            Ok(Ok(value)) => value,
            Ok(Err(payload)) => std::panic::resume_unwind(payload),
            // Only reachable if the worker thread died outside its job, which it cannot.
            Err(_) => panic!("the frame worker stopped with the editor state"),
        }
    }

    /// Whether jobs run on the worker thread (not in place).
    pub fn threaded(&self) -> bool {
        self.jobs.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_runs_on_the_worker_and_its_state_comes_back() {
        let mut overlap = Overlap::<Vec<u64>>::new("test-overlap", true);
        let mut state = vec![1];
        for i in 2..10 {
            overlap.start(state, Box::new(move |v: &mut Vec<u64>| v.push(i)));
            state = overlap.finish();
        }
        assert_eq!(state, (1..10).collect::<Vec<_>>());
    }

    #[test]
    fn without_a_thread_the_job_runs_in_place() {
        let mut overlap = Overlap::<u32>::new("test-overlap-inline", false);
        let caller = std::thread::current().id();
        let ran_on = std::sync::Arc::new(std::sync::Mutex::new(None));
        let seen = std::sync::Arc::clone(&ran_on);
        overlap.start(
            1,
            Box::new(move |v: &mut u32| {
                *v += 1;
                if let Ok(mut seen) = seen.lock() {
                    *seen = Some(std::thread::current().id());
                }
            }),
        );
        assert_eq!(*ran_on.lock().unwrap(), Some(caller));
        assert_eq!(overlap.finish(), 2);
    }

    #[test]
    fn a_panic_in_a_job_reaches_the_caller() {
        let mut overlap = Overlap::<u32>::new("test-overlap-panic", true);
        overlap.start(1, Box::new(|_: &mut u32| panic!("step failed")));
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| overlap.finish()));
        let message = caught.err().and_then(|p| p.downcast_ref::<&str>().map(|s| s.to_string()));
        assert_eq!(message.as_deref(), Some("step failed"));
        // The worker goes on with the next job.
        overlap.start(2, Box::new(|v: &mut u32| *v += 1));
        assert_eq!(overlap.finish(), 3);
    }
}
