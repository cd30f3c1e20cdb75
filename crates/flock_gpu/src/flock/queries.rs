//! [`DeviceFlock`]'s queries: questions about the boids answered on the device and read back
//! asynchronously, a few bytes instead of the whole flock (query.rs, shaders/query.wgsl).

use super::DeviceFlock;
use crate::error::GpuError;
use crate::query::{NearQuery, QueryPass, QueryResult, check_query};

impl DeviceFlock {
    /// Asks how many boids are closer than `query.radius` to `query.point` and which are the
    /// nearest `query.nearest`, of the boids as they are after the steps submitted so far; the
    /// answer comes from [`poll_query`](Self::poll_query) a frame or so later, without a
    /// wait. One query at a time. Refused, with nothing submitted: a point not finite or
    /// beyond `FlockConfig::MAX_MAGNITUDE`, a radius negative, not finite or huge, more than
    /// [`MAX_NEAREST`](crate::MAX_NEAREST) boids to name, a query already in flight.
    pub fn query_near(&mut self, query: NearQuery) -> Result<(), GpuError> {
        check_query(&query)?;
        let pass = self
            .query
            .get_or_insert_with(|| QueryPass::new(&self.device));
        pass.submit(
            &self.compiled.query,
            &self.device,
            &self.queue,
            &self.boids.boids,
            self.count,
            &self.config,
            &query,
        )
    }

    /// The answer to the query in flight, once the device has it: `None` until then (and when
    /// no query is in flight). It polls the device without blocking, so an app calls it once a
    /// frame.
    pub fn poll_query(&mut self) -> Option<Result<QueryResult, GpuError>> {
        self.query.as_mut()?.poll(&self.device)
    }
}
